export * from './rate-limiter';
