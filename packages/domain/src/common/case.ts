/**
 * The product names things in camelCase; the API and the runtime configuration speak snake_case.
 * One rule maps between them, so an adapter maps a whole record without a table to keep in step.
 */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Rest}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Rest>}`
  : S;

/** `T` with its keys in snake_case. */
export type SnakeCased<T> = { [K in keyof T as K extends string ? SnakeCase<K> : K]: T[K] };

export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
