export * from './secrets';
