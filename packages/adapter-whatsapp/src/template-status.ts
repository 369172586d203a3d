import type { TemplateStatus } from '@voiceplane/domain';

/**
 * Meta's template states in voiceplane's three: a template that cannot be sent
 * for any reason Meta gives is `rejected`; the states Meta passes through while reviewing are
 * `pending`. Null for states that say nothing about sendability (quality flags, appeals).
 */
export function templateStatusOf(metaStatus: string): TemplateStatus | null {
  switch (metaStatus.toUpperCase()) {
    case 'APPROVED':
      return 'approved';
    case 'REJECTED':
    case 'DISABLED':
    case 'PAUSED':
      return 'rejected';
    case 'PENDING':
      return 'pending';
    default:
      return null;
  }
}
