/** What a failure says, for logs and clean-up records (never carries request bodies). */
export const failureText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 500);
