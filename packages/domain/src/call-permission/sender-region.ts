/**
 * Senders whose country the chat app refuses business-initiated calls from
 * (`region_not_supported`).
 */
export const CALL_REFUSED_SENDER_COUNTRIES = ['US', 'CA', 'EG', 'VN', 'NG', 'TR'] as const;

/** A sender whose country is unknown is not refused: nothing says it is in a refused region. */
export function senderRegionRefusesCalls(countryCode: string | null): boolean {
  return (
    countryCode !== null && (CALL_REFUSED_SENDER_COUNTRIES as readonly string[]).includes(countryCode.toUpperCase())
  );
}
