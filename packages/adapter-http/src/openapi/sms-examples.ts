/**
 * Handler error answers of the SMS operations, recorded from sms.int.spec.ts. The Twilio status callback is
 * served only with SMS_PROVIDER=twilio, and this table is held against the default document (as the WhatsApp
 * ingress is): its 403 `{"error":"Invalid signature."}` is tested in sms-twilio.int.spec.ts.
 */
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
const SMS_404 = { message: 'SMS not found.' };

export const SMS_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'POST /api/user/sms': {
    400: [
      { message: 'Invalid phone number format' },
      { message: 'From number not found' },
      { message: 'Phone number is not SMS-capable' },
      { message: 'Insufficient balance to send SMS' },
    ],
    422: [
      invalid({
        from: ['The from field is required.'],
        to: ['The to field is required.'],
        body: ['The body field is required.'],
      }),
      invalid({ body: ['The body may not be greater than 300 characters.'] }),
    ],
    500: [{ message: 'Failed to send SMS', error: 'Sandbox fault injected (sms_send).' }],
  },
  'GET /api/user/sms': { 422: [invalid({ page: ['The page must be at least 1.'] })] },
  'GET /api/user/sms/{id}': { 404: [SMS_404] },
  'GET /api/sandbox/sms/outbox': { 404: [{ message: 'Not found.' }] },
  'POST /api/sandbox/sms/{id}/status': {
    404: [{ message: 'Not found.' }],
    409: [{ message: 'The SMS already has a final status.' }],
    422: [invalid({ status: ['The selected status is invalid.'] })],
  },
};
