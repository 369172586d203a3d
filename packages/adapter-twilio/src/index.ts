export {};
export * from './twilio-number-inventory';
export * from './twilio-sms';
