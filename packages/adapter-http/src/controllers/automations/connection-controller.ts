import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { Connection, TargetUrlPolicy } from '@voiceplane/domain';
import { CheckConnection, ConnectionInput, ManageConnections, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { ConnectionFieldsBody, CreateConnectionBody } from './automation-bodies';
import { CONNECTION_ANSWERS, CONNECTION_NOT_FOUND, CONNECTION_SUCCESS } from './automation-answers';
import { presentConnection } from './automation-presenters';

const BASE = '/api/user/automate/connections';

/** Connections: the body's shape here, the credential rules and sealing in ManageConnections. */
@Controller(BASE)
export class ConnectionController {
  constructor(
    @inject(TOKENS.ManageConnections) private readonly connections: ManageConnections,
    @inject(TOKENS.TargetUrlPolicy) private readonly policy: TargetUrlPolicy,
    @inject(CheckConnection) private readonly check: CheckConnection,
  ) {}

  @Doc({ summary: 'List HTTP API connections', tag: 'Automations' })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    return reply(200, { data: (await this.connections.list(principalOf(req).userId)).map(presentConnection) });
  }

  @Doc({
    summary: 'Create an HTTP API connection (no check)',
    tag: 'Automations',
    body: CreateConnectionBody,
    success: 201,
  })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const body = parse(CreateConnectionBody, req.body, 'standard', { targetPolicy: this.policy });
    const create = () =>
      this.connections.create(principalOf(req).userId, {
        ...inputOf(body),
        name: body.name,
        baseUrl: body.base_url,
        authType: body.auth_type,
      });
    return reply(req, create, (result) =>
      result.ok
        ? { status: 201, body: { message: CONNECTION_SUCCESS.created, data: presentConnection(result.value) } }
        : answerFor(CONNECTION_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'Change a connection', tag: 'Automations', body: ConnectionFieldsBody })
  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const changesOf = () =>
      inputOf(parse(ConnectionFieldsBody, req.body, 'standard', { partial: true, targetPolicy: this.policy }));
    const result = await this.connections.update(principalOf(req).userId, pathId(id, CONNECTION_NOT_FOUND), changesOf);
    if (!result.ok) refuse(CONNECTION_ANSWERS, result.error);
    return reply(200, { message: CONNECTION_SUCCESS.updated, data: presentConnection(result.value) });
  }

  @Doc({ summary: 'Delete a connection', tag: 'Automations' })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.connections.delete(principalOf(req).userId, pathId(id, CONNECTION_NOT_FOUND));
    if (!result.ok) refuse(CONNECTION_ANSWERS, result.error);
    return reply(200, { message: CONNECTION_SUCCESS.deleted });
  }

  @Doc({ summary: 'Call the base URL with the credentials and record the status', tag: 'Automations' })
  @Post('/:id/check')
  async checkNow(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const connectionId = pathId(id, CONNECTION_NOT_FOUND);
    return reply(
      req,
      () => this.check.execute(principalOf(req).userId, connectionId),
      (checked: Connection | null) =>
        checked === null ? CONNECTION_NOT_FOUND : { status: 200, body: { data: presentConnection(checked) } },
    );
  }
}

/** The body's wire names as the use case's; what was not sent stays absent. */
function inputOf(body: ConnectionFieldsBody): Partial<ConnectionInput> {
  const input: { -readonly [K in keyof ConnectionInput]?: ConnectionInput[K] } = {};
  if (body.name !== undefined) input.name = body.name;
  if (body.base_url !== undefined) input.baseUrl = body.base_url;
  if (body.notes_path !== undefined) input.notesPath = body.notes_path;
  if (body.auth_type !== undefined) input.authType = body.auth_type;
  if (body.auth_value !== undefined) input.authValue = body.auth_value;
  if (body.auth_header_name !== undefined) input.authHeaderName = body.auth_header_name;
  return input;
}
