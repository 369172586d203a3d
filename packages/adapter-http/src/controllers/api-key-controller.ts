import { Controller, Delete, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CredentialRepository, hashToken, Ids, TOKENS } from '@voiceplane/application';
import { Str } from '../validation';
import { parse, pathId, reply } from '../pipeline/responses';
import { answer } from '../pipeline/answers';
import { ACCOUNT_ANSWERS, API_KEY_NOT_FOUND } from './account-answers';
import { principalOf } from '../pipeline/request-context';
import { presentApiKey } from '../presenters/account';
import { Doc } from '../openapi/route-doc';

class CreateApiKeyBody {
  @Str({ required: true, max: 255, description: 'Label; duplicates allowed' }) name!: string;
}

/** Plain CRUD over the credential store: no use case in between. */
@Controller('/api/user/api-keys')
export class ApiKeyController {
  constructor(
    @inject(TOKENS.CredentialRepository) private readonly credentials: CredentialRepository,
    @inject(TOKENS.Ids) private readonly ids: Ids,
  ) {}

  @Doc({ summary: 'Create an API key (token shown once)', tag: 'API keys', body: CreateApiKeyBody, success: 201 })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const body = parse(CreateApiKeyBody, req.body);
    const token = this.ids.secretToken('vp_', 40);
    const key = await this.credentials.createApiKey(principalOf(req).userId, body.name, hashToken(token));
    return reply(201, {
      message: 'API key created successfully.',
      api_key: { id: key.id, name: key.name, token, created_at: key.createdAt.toISOString() },
    });
  }

  @Doc({ summary: 'List API keys (never their tokens)', tag: 'API keys' })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const keys = await this.credentials.listApiKeys(principalOf(req).userId);
    return reply(200, { api_keys: keys.map(presentApiKey) });
  }

  @Doc({ summary: 'Delete an API key; it stops working at once', tag: 'API keys' })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.credentials.deleteApiKey(principalOf(req).userId, pathId(id, API_KEY_NOT_FOUND));
    if (!deleted) answer(ACCOUNT_ANSWERS, 'api_key_not_found');
    return reply(200, { message: 'API key deleted successfully.' });
  }
}
