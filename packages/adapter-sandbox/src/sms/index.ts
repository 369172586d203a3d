export * from './sandbox-sms-provider';
