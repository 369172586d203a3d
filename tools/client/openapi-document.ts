import pino from 'pino';
import { DataSource } from 'typeorm';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { buildOpenApiDocument, routesOf } from '@voiceplane/adapter-http';
import { composeApi, loadConfig, VERSION } from '@voiceplane/composition';

/**
 * The OpenAPI document of the default (sandbox) composition, built without a database: composing binds
 * adapters and collects the documented routes but queries nothing while the deployment tokens are given.
 */
export async function openApiDocument(): Promise<object> {
  const config = {
    ...loadConfig({}),
    adminToken: 'document-only',
    runtimeToken: 'document-only',
    logLevel: 'silent' as const,
  };
  const dataSource = new DataSource({ type: 'postgres' });
  const bus = new InProcessMessageBus();
  const runtime = await composeApi(config, { dataSource, logger: pino({ level: 'silent' }), bus });
  await bus.close();
  return buildOpenApiDocument(VERSION, routesOf(runtime.container));
}
