export * from './segments';
export * from './sms';
