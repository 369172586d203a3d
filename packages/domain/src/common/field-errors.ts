/**
 * The worded 422 `errors` map: wire field names (`allowed_inbound_ips`, `tools.0.event_type_id`) to
 * final texts. Only the transport fills it; domain rules report `FieldProblems` (codes).
 */
export type FieldErrors = Record<string, string[]>;

export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

export function hasFieldErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}
