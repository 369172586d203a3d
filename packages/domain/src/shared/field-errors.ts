/**
 * Field-keyed validation failures raised by domain rules (cross-field checks on merged state).
 * Keys are the wire field names (`allowed_inbound_ips`, `tools.0.event_type_id`); messages are final text.
 */
export type FieldErrors = Record<string, string[]>;

export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

export function hasFieldErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}
