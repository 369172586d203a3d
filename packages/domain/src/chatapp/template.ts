import { err, ok, Result } from '../common/result';

export const TEMPLATE_STATUSES = ['approved', 'pending', 'rejected'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_CATEGORIES = ['marketing', 'utility', 'authentication', 'voice_call_request'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** A pre-approved message of a sender. */
export interface MessageTemplate {
  readonly id: number;
  readonly senderId: number;
  readonly name: string;
  readonly language: string;
  readonly category: TemplateCategory;
  readonly status: TemplateStatus;
  readonly bodyText: string;
  readonly footerText: string | null;
  /** Placeholder names in order of first appearance (see `parseTemplatePlaceholders`). */
  readonly variables: readonly string[];
  readonly rejectionReason: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The refusal names the current status: the error text quotes it. */
export type TemplateNotApproved = { readonly code: 'template_not_approved'; readonly templateStatus: TemplateStatus };

/** Only `approved` templates are sent. */
export function checkTemplateCanSend(status: TemplateStatus): Result<void, TemplateNotApproved> {
  return status === 'approved' ? ok(undefined) : err({ code: 'template_not_approved', templateStatus: status });
}
