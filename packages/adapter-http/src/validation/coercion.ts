/** The transport tolerance, applied by class-transformer before validation. */

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Trimmed text; `""` is null, which the presence rules then read as null or absent. */
export function trimmed(v: unknown, trim = true): unknown {
  if (typeof v !== 'string') return v;
  const s = trim ? v.trim() : v;
  return s === '' ? null : s;
}

export function toBoolean(v: unknown): unknown {
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  return v;
}

/** A string of digits becomes the id it spells; anything else is left for the validators to reject. */
export function toId(v: unknown): unknown {
  if (typeof v === 'string' && /^[0-9]{1,15}$/.test(v) && Number(v) > 0) return Number(v);
  return v;
}

export function toNumber(v: unknown): unknown {
  if (typeof v === 'string' && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) return Number(v);
  return v;
}

// ISO 8601 with a UTC offset (or `Z`); a bare date means midnight UTC.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?))?$/i;

/** A timestamp as the API accepts it, or null. */
export function parseTimestamp(raw: string): Date | null {
  if (!ISO_TIMESTAMP.test(raw)) return null;
  const at = new Date(raw.length === 10 ? `${raw}T00:00:00Z` : raw);
  return Number.isNaN(at.getTime()) ? null : at;
}
