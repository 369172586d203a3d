export { GuardedHttpClient, type GuardedHttpClientOptions, type OutboundLogger } from './guarded-http-client';
