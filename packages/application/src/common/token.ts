/**
 * A dependency-injection identifier that carries the type of what it identifies, so a binding of
 * the wrong thing does not compile.
 *
 * At run time it is a plain, unique symbol. Its type also claims an abstract constructor of `T`:
 * that is the member of inversify's `ServiceIdentifier<T>` from which `T` is inferred, so
 * `container.bind(token).toConstantValue(x)` checks `x` against `T` and `container.get(token)`
 * answers a `T` — without this package depending on inversify. `abstract` keeps `new token()` from
 * compiling. (`@inject(token)` on a constructor parameter cannot be checked: TypeScript does not
 * show a parameter decorator the parameter's type.)
 */
export type Token<T> = symbol & (abstract new (...args: never) => T);

/** The only place a DI symbol is made (tools/check-boundaries rejects any other). */
export function token<T>(name: string): Token<T> {
  return Symbol(name) as Token<T>;
}
