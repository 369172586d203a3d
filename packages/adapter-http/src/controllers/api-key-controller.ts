import { Controller, Delete, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageApiKeys, TOKENS } from '@voiceplane/application';
import { Str } from '../validation';
import { parse, pathId, reply } from '../pipeline/responses';
import { refuse } from '../pipeline/answers';
import { ACCOUNT_ANSWERS, ACCOUNT_SUCCESS, API_KEY_NOT_FOUND } from './account-answers';
import { principalOf } from '../pipeline/request-context';
import { presentApiKey } from '../presenters/account';
import { Doc } from '../openapi/route-doc';

class CreateApiKeyBody {
  @Str({ required: true, max: 255, description: 'Label; duplicates allowed' }) name!: string;
}

/** The account's API keys: minting the token and scoping to the account live in ManageApiKeys. */
@Controller('/api/user/api-keys')
export class ApiKeyController {
  constructor(@inject(TOKENS.ManageApiKeys) private readonly keys: ManageApiKeys) {}

  @Doc({ summary: 'Create an API key (token shown once)', tag: 'API keys', body: CreateApiKeyBody, success: 201 })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const body = parse(CreateApiKeyBody, req.body);
    return reply(
      req,
      () => this.keys.create(principalOf(req).userId, body.name),
      ({ key, token }) => ({
        status: 201,
        body: {
          message: ACCOUNT_SUCCESS.apiKeyCreated,
          api_key: { id: key.id, name: key.name, token, created_at: key.createdAt.toISOString() },
        },
      }),
    );
  }

  @Doc({ summary: 'List API keys (never their tokens)', tag: 'API keys' })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const keys = await this.keys.list(principalOf(req).userId);
    return reply(200, { api_keys: keys.map(presentApiKey) });
  }

  @Doc({ summary: 'Delete an API key; it stops working at once', tag: 'API keys' })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.keys.delete(principalOf(req).userId, pathId(id, API_KEY_NOT_FOUND));
    if (!result.ok) refuse(ACCOUNT_ANSWERS, result.error);
    return reply(200, { message: ACCOUNT_SUCCESS.apiKeyDeleted });
  }
}
