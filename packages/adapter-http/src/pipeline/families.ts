import { FieldErrors } from '@voiceplane/domain';

/** Each resource family keeps its own error shape. */
export type ErrorFamily = 'standard' | 'sip' | 'chatapp' | 'conversation' | 'automation' | 'campaign_status';

const VALIDATION_MESSAGE = 'The given data was invalid.';

export function familyOfPath(rawPath: string): ErrorFamily {
  // The router matches paths case-insensitively, so the family does too.
  const path = rawPath.toLowerCase();
  if (path.startsWith('/api/user/chatapp') || path.startsWith('/api/user/whatsapp')) return 'chatapp';
  if (
    path.startsWith('/api/user/conversations') ||
    path.startsWith('/api/automate/conversations') ||
    path.startsWith('/api/conversations')
  )
    return 'conversation';
  // Start/stop answers every outcome with `success`, its validation errors too.
  if (path.replace(/\/+$/, '') === '/api/user/campaigns/update-status') return 'campaign_status';
  return 'standard';
}

export function validationBody(family: ErrorFamily, errors: FieldErrors): Record<string, unknown> {
  switch (family) {
    case 'chatapp': {
      const first = Object.values(errors)[0]?.[0] ?? VALIDATION_MESSAGE;
      return { success: false, error: first, error_code: 'VALIDATION_ERROR', errors };
    }
    case 'conversation':
      return { status: false, error: VALIDATION_MESSAGE, errors };
    case 'campaign_status':
      return { message: VALIDATION_MESSAGE, success: false, errors };
    default:
      return { message: VALIDATION_MESSAGE, errors };
  }
}

export function serverErrorBody(family: ErrorFamily): Record<string, unknown> {
  return family === 'chatapp'
    ? { success: false, error: 'Server error.', error_code: 'SERVER_ERROR' }
    : { message: 'Server error.' };
}

export function tooManyBody(family: ErrorFamily, retryAfter: number): Record<string, unknown> {
  return family === 'chatapp'
    ? { success: false, error: 'Too many requests.', retry_after: retryAfter }
    : { message: 'Too Many Attempts.', retry_after: retryAfter };
}
