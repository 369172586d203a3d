import { Controller, Get, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { isFreeForInbound, PhoneNumber, PhoneNumberQueries, TOKENS } from '@voiceplane/application';
import { Str, ListFilters } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { presentPhoneNumber } from './presenters';

const TYPE_LABELS: Record<PhoneNumber['type'], string> = { purchased: 'Purchased number', sip: 'SIP trunk' };

/** The number record with Famulor's `type_label` and `is_available` (free for a new inbound assistant). */
const presentAssignable = (n: PhoneNumber) => ({
  ...presentPhoneNumber(n),
  type_label: TYPE_LABELS[n.type],
  is_available: isFreeForInbound(n),
});

const NUMBER_USES = ['inbound', 'outbound'] as const;

@ListFilters()
class AssistantNumbersQuery {
  @Str({
    enum: NUMBER_USES,
    description: 'inbound: numbers no inbound assistant answers on yet; outbound: every number',
  })
  type?: (typeof NUMBER_USES)[number];
}

/**
 * The owned numbers a new assistant of a type can take, each saying whether an inbound assistant could still
 * take it. A bare array, as the clients that call it read it.
 */
@Controller('/api/user/assistants')
export class AssistantNumberController {
  constructor(@inject(TOKENS.PhoneNumberQueries) private readonly numbers: PhoneNumberQueries) {}

  @Doc({
    summary:
      'Owned numbers a new assistant of a type can take, newest first (bare array; used by the MCP server and OpenClaw)',
    tag: 'Phone numbers',
    query: AssistantNumbersQuery,
  })
  @Get('/phone-numbers')
  async list(@Request() req: ExpressRequest) {
    const { type } = parse(AssistantNumbersQuery, req.query);
    const numbers = await this.numbers.forAssistants(principalOf(req).userId, type);
    return reply(200, numbers.map(presentAssignable));
  }
}
