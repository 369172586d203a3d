export * from './account-event';
