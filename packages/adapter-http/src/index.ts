import 'reflect-metadata';

export { buildHttpApp, type HttpAppOptions } from './http-app';
export type { RouteQuota } from './pipeline/rate-limiting';
export { AccountController, accountRouteDocs } from './controllers/account-controller';
export { ApiKeyController, apiKeyRouteDocs } from './controllers/api-key-controller';
export { AdminController, adminRouteDocs } from './controllers/admin-controller';
export { BillingController, billingRouteDocs } from './controllers/billing-controller';
export { buildOpenApiDocument } from './openapi/registry';
export type { RouteDoc } from './openapi/route-doc';
export * from './controllers/assistants';
export * from './controllers/tools';
export * from './controllers/telephony';
export * from './controllers/webhooks';
export * from './controllers/calls';
export * from './controllers/chatapp';
