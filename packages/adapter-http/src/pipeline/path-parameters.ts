/**
 * The shape of a path parameter, by its name: ids are numeric (`41`) or prefixed (`aut_` +
 * 22 base62), conversations are UUIDs or their numeric ids (aliases included), chat-app messages `SM` + 32 hex. Names, keys and secrets (`{key}`,
 * `{provider}`, `{token}`) are free. So a literal word (`all`, `phone-numbers`) is never taken for an id.
 */
const SHAPES: readonly [(name: string) => boolean, string][] = [
  [(name) => name === 'id' || name.endsWith('_id'), '(?:[0-9]+|[a-z]{2,5}_[A-Za-z0-9]{22})'],
  [(name) => name === 'uuid', '(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9]+)'],
  [(name) => name === 'message_sid', 'SM[0-9a-fA-F]{32}'],
];

/** The regular-expression source one path segment named `name` must match. */
export function parameterPattern(name: string): string {
  return SHAPES.find(([applies]) => applies(name))?.[1] ?? '[^/]+';
}

const WHOLE = new Map<string, RegExp>();

export function parameterFits(name: string, value: string): boolean {
  let whole = WHOLE.get(name);
  if (!whole) WHOLE.set(name, (whole = new RegExp(`^(?:${parameterPattern(name)})$`)));
  return whole.test(value);
}
