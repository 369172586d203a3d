import { Controller, Get, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { PhoneNumberQueries, TOKENS } from '@voiceplane/application';
import { Str } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { presentPhoneNumber } from './presenters';

const NUMBER_USES = ['inbound', 'outbound'] as const;

class AssistantNumbersQuery {
  @Str({ enum: NUMBER_USES, description: 'inbound: numbers that ring an assistant; outbound: numbers an outbound assistant calls from' })
  type?: (typeof NUMBER_USES)[number];
}

/**
 * The owned numbers an assistant form offers: all of them, those answered by an inbound assistant, or those
 * an outbound assistant calls from. A bare array, as the clients that call it read it.
 */
@Controller('/api/user/assistants')
export class AssistantNumberController {
  constructor(@inject(TOKENS.PhoneNumberQueries) private readonly numbers: PhoneNumberQueries) {}

  @Doc({
    summary: 'Owned numbers to pick for an assistant, newest first (bare array; used by the MCP server and OpenClaw)', tag: 'Phone numbers',
    query: AssistantNumbersQuery,
  })
  @Get('/phone-numbers')
  async list(@Request() req: ExpressRequest) {
    const { type } = parse(AssistantNumbersQuery, req.query);
    const numbers = await this.numbers.forAssistants(principalOf(req).userId, type);
    return reply(200, numbers.map(presentPhoneNumber));
  }
}
