import 'reflect-metadata';

export { buildHttpApp, type HttpAppOptions } from './http-app';
export type { RouteQuota } from './pipeline/rate-limiting';
export { AccountController } from './controllers/account-controller';
export { ApiKeyController } from './controllers/api-key-controller';
export { AdminController } from './controllers/admin-controller';
export { BillingController } from './controllers/billing-controller';
export { buildOpenApiDocument } from './openapi/registry';
export { authOf, documentedRoutes, routesOf, type RouteDoc } from './openapi/route-doc';
// What the acceptance suites (testing/acceptance) hold the composed app to: the route tables, the documented
// errors and examples, and the wording of refusals.
export { ALIAS_ROUTES, type AliasRoute } from './pipeline/aliases';
export { fieldErrors } from './pipeline/field-messages';
export { answerFor } from './pipeline/answers';
export { familyOfPath, validationBody } from './pipeline/families';
export { parameterFits } from './pipeline/path-parameters';
export { ASSISTANT_FIELD_MESSAGES, ASSISTANT_MESSAGES } from './controllers/assistants/assistant-messages';
export { APPLY_ANSWERS } from './controllers/automations/automation-answers';
export { MAX_BATCH_CALLS } from './mcp/mcp-messages';
export { HANDLER_ERRORS } from './openapi/handler-errors';
export { RECORDED_EXAMPLES } from './openapi/success-examples';
export { declaredFields } from './validation';
export * from './controllers/assistants';
export * from './controllers/knowledge-bases';
export * from './controllers/tools';
export * from './controllers/telephony';
export * from './controllers/webhooks';
export * from './controllers/calls';
export * from './controllers/campaigns';
export * from './controllers/automations';
export * from './controllers/chatapp-providers';
export * from './controllers/chatapp-voice';
export * from './controllers/top-ups';
export * from './controllers/chatapp';
export * from './controllers/conversations';
export * from './controllers/account-events';
export * from './controllers/analytics';
export * from './controllers/web-chat';
