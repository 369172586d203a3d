/** WhatsApp Cloud webhook notifications shaped like the examples of Meta's webhook reference, for tests. */

export const WABA_ID = '102290129340398';
export const PHONE_NUMBER_ID = '106540352242922';
export const METADATA = { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID };

/** One `entry` with one change of `field`. */
export function notification(field: string, value: object, time?: number) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: WABA_ID, ...(time === undefined ? {} : { time }), changes: [{ value, field }] }],
  };
}

/** Customer messages from Sheena Nelson (+16505551234) to the test number. */
export function inboundMessages(messages: readonly unknown[]) {
  return notification('messages', {
    messaging_product: 'whatsapp',
    metadata: METADATA,
    contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
    messages,
  });
}

export function textMessage(id: string, body: string) {
  return inboundMessages([{ from: '16505551234', id, timestamp: '1749416383', type: 'text', text: { body } }]);
}
