/**
 * Keys are voiceplane's media ids — a plain token with at most one short extension (recordings
 * keep the one the recorder gives them; never `.type`, the file store's content-type companions) —
 * so no key can name a path or object outside the store.
 */
const KEY = /^[A-Za-z0-9_-]{1,64}(?:\.(?!type$)[a-z0-9]{1,5})?$/;

export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid media key ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}
