import 'reflect-metadata';

export { buildHttpApp, type HttpAppOptions } from './http-app';
export type { RouteQuota } from './pipeline/rate-limiting';
export { AccountController } from './controllers/account-controller';
export { ApiKeyController } from './controllers/api-key-controller';
export { AdminController } from './controllers/admin-controller';
export { BillingController } from './controllers/billing-controller';
export { buildOpenApiDocument } from './openapi/registry';
export * from './controllers/assistants';
export * from './controllers/tools';
export * from './controllers/telephony';
export * from './controllers/webhooks';
export * from './controllers/calls';
