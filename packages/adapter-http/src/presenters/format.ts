/** ISO 8601 UTC with milliseconds. */
export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Page envelope. */
export function pageEnvelope<T>(data: T[], total: number, page: number, perPage: number) {
  return { data, current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/**
 * Where a page of a bare-array list stands: `X-Total-Count`, and a `Link` header (RFC 8288) to the first, last,
 * previous and next pages, keeping the request's other parameters.
 */
export function pageHeaders(
  path: string,
  query: Record<string, unknown>,
  total: number,
  page: { page: number; perPage: number },
): Record<string, string> {
  const last = Math.max(1, Math.ceil(total / page.perPage));
  const at = (n: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (key !== 'page' && key !== 'per_page' && typeof value === 'string') params.set(key, value);
    params.set('page', String(n));
    params.set('per_page', String(page.perPage));
    return `<${path}?${params.toString()}>`;
  };
  const links = [`${at(1)}; rel="first"`, `${at(last)}; rel="last"`];
  if (page.page > 1) links.push(`${at(Math.min(page.page - 1, last))}; rel="prev"`);
  if (page.page < last) links.push(`${at(page.page + 1)}; rel="next"`);
  return { 'X-Total-Count': String(total), Link: links.join(', ') };
}
