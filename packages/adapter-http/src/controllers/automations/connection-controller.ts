import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { Connection, DEFAULT_NOTES_PATH, FieldErrors, TargetUrlPolicy } from '@voiceplane/domain';
import { CheckConnection, ConnectionFields, ConnectionRepository, SecretCipher, TOKENS } from '@voiceplane/application';
import { failValidation, parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import type { RouteDoc } from '../../openapi/route-doc';
import { ConnectionFieldsBody, CreateConnectionBody } from './automation-bodies';
import { CONNECTION_NOT_FOUND } from './automation-answers';
import { presentConnection } from './automation-presenters';

const BASE = '/api/user/automate/connections';

export const connectionRouteDocs: readonly RouteDoc[] = [
  { method: 'get', path: BASE, summary: 'List HTTP API connections', tag: 'Automations' },
  { method: 'post', path: BASE, summary: 'Create an HTTP API connection (no check)', tag: 'Automations', body: CreateConnectionBody, success: 201 },
  { method: 'put', path: `${BASE}/:id`, summary: 'Change a connection', tag: 'Automations', body: ConnectionFieldsBody },
  { method: 'delete', path: `${BASE}/:id`, summary: 'Delete a connection', tag: 'Automations' },
  { method: 'post', path: `${BASE}/:id/check`, summary: 'Call the base URL with the credentials and record the status', tag: 'Automations' },
];

/** The credential rules across fields, on the connection as it would be stored. */
function credentialErrors(authType: string, authValue: string | null | undefined, headerName: string | null | undefined): FieldErrors {
  const errors: FieldErrors = {};
  if (authType !== 'none' && (authValue === undefined || authValue === null || authValue === '')) errors.auth_value = ['The auth value field is required unless auth type is none.'];
  else if (authType === 'basic' && !String(authValue).includes(':')) errors.auth_value = ['The auth value must be user:password for basic authentication.'];
  if (authType === 'header' && !headerName) errors.auth_header_name = ['The auth header name field is required when auth type is header.'];
  return errors;
}

/** Connections; the secret is sealed by the deployment cipher and never answered. */
@Controller(BASE)
export class ConnectionController {
  constructor(
    @inject(TOKENS.ConnectionRepository) private readonly connections: ConnectionRepository,
    @inject(TOKENS.TargetUrlPolicy) private readonly policy: TargetUrlPolicy,
    @inject(SecretCipher) private readonly cipher: SecretCipher,
    @inject(CheckConnection) private readonly check: CheckConnection,
  ) {}

  @Get('/')
  async list(@Request() req: ExpressRequest) {
    return reply(200, { data: (await this.connections.list(principalOf(req).userId)).map(presentConnection) });
  }

  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const body = parse(CreateConnectionBody, req.body, 'standard', { targetPolicy: this.policy });
    const errors = credentialErrors(body.auth_type, body.auth_value, body.auth_header_name);
    if (Object.keys(errors).length > 0) failValidation(errors);
    const fields: ConnectionFields = {
      name: body.name, kind: 'http_api', baseUrl: body.base_url, notesPath: body.notes_path ?? DEFAULT_NOTES_PATH, authType: body.auth_type,
      authHeaderName: body.auth_type === 'header' ? (body.auth_header_name as string) : null,
      sealedAuthValue: body.auth_type === 'none' ? null : await this.cipher.encrypt(body.auth_value as string),
    };
    const created = await this.connections.create(principalOf(req).userId, fields);
    return reply(201, { message: 'Connection created successfully', data: presentConnection(created) });
  }

  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = principalOf(req).userId;
    const existing = await this.connections.find(userId, pathId(id, CONNECTION_NOT_FOUND));
    if (existing === null) refuse(CONNECTION_NOT_FOUND);
    const body = parse(ConnectionFieldsBody, req.body, 'standard', { partial: true, targetPolicy: this.policy });
    const authType = body.auth_type ?? existing.authType;
    const credentialsChange = body.auth_type !== undefined || body.auth_value !== undefined || body.auth_header_name !== undefined;
    if (credentialsChange) {
      const value = body.auth_value ?? (authType !== 'none' && existing.sealedAuthValue ? 'kept:kept' : undefined);
      const errors = credentialErrors(authType, value, body.auth_header_name ?? existing.authHeaderName);
      if (Object.keys(errors).length > 0) failValidation(errors);
    }
    const changes: { -readonly [K in keyof ConnectionFields]?: ConnectionFields[K] } = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.base_url !== undefined) changes.baseUrl = body.base_url;
    if (body.notes_path !== undefined) changes.notesPath = body.notes_path;
    if (body.auth_type !== undefined) changes.authType = body.auth_type;
    if (authType === 'none') {
      changes.sealedAuthValue = null;
      changes.authHeaderName = null;
    } else if (body.auth_value !== undefined) changes.sealedAuthValue = await this.cipher.encrypt(body.auth_value);
    if (authType === 'header' && body.auth_header_name !== undefined) changes.authHeaderName = body.auth_header_name;
    if (authType !== 'header' && authType !== 'none') changes.authHeaderName = null;
    const reset = body.base_url !== undefined || credentialsChange;
    const updated = await this.connections.update(userId, existing.id, changes, reset);
    if (updated === null) refuse(CONNECTION_NOT_FOUND);
    return reply(200, { message: 'Connection updated successfully', data: presentConnection(updated) });
  }

  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!(await this.connections.delete(principalOf(req).userId, pathId(id, CONNECTION_NOT_FOUND)))) refuse(CONNECTION_NOT_FOUND);
    return reply(200, { message: 'Connection deleted successfully' });
  }

  @Post('/:id/check')
  async checkNow(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const checked: Connection | null = await this.check.execute(principalOf(req).userId, pathId(id, CONNECTION_NOT_FOUND));
    if (checked === null) refuse(CONNECTION_NOT_FOUND);
    return reply(200, { data: presentConnection(checked) });
  }
}
