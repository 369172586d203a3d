/** ISO 8601 UTC with milliseconds. */
export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Page envelope. */
export function pageEnvelope<T>(data: T[], total: number, page: number, perPage: number) {
  return { data, current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}
