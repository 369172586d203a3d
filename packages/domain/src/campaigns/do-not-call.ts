/** The account's do-not-call list: numbers no call the platform places itself may go to. */
export const DO_NOT_CALL_LIMITS = {
  /** Numbers one account may list. */
  numbersPerAccount: 100_000,
  /** Numbers one request may add. */
  numbersPerRequest: 1_000,
  reasonMax: 255,
} as const;

/** What make_call and chat-app calls answer for a listed number. */
export const DO_NOT_CALL_MESSAGE = 'The phone number is on the do-not-call list.';

/** The reason stored when a callee asks the assistant, during a call, not to be called again. */
export const DO_NOT_CALL_TOOL_REASON = 'asked not to be called';

/** The distinct numbers of a bulk add, first reason kept: a number sent twice is added once. */
export function distinctNumbers<E extends { readonly phoneNumber: string }>(entries: readonly E[]): E[] {
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.phoneNumber) && seen.add(e.phoneNumber) !== undefined);
}
