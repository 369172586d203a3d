export {};
export * from './twilio-number-inventory';
