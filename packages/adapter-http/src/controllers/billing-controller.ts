import { Controller, Get, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { allowancePeriod, allowanceRemaining, LedgerEntryType } from '@voiceplane/domain';
import { ChatappMessageRepository, LedgerRepository, TOKENS, UserRepository } from '@voiceplane/application';
import { PageQuery, pageOf, Str } from '../validation';
import { parse, reply } from '../pipeline/responses';
import { answer } from '../pipeline/answers';
import { ACCOUNT_ANSWERS } from './account-answers';
import { principalOf } from '../pipeline/request-context';
import { presentLedgerEntry, presentPlan } from '../presenters/account';
import { pageEnvelope } from '../presenters/format';
import { Doc } from '../openapi/route-doc';

class LedgerQuery extends PageQuery {
  @Str({ enum: ['top_up', 'charge', 'adjustment'] }) type?: LedgerEntryType;
}

@Controller('/api/user/billing')
export class BillingController {
  constructor(
    @inject(TOKENS.UserRepository) private readonly users: UserRepository,
    @inject(TOKENS.LedgerRepository) private readonly ledger: LedgerRepository,
    @inject(TOKENS.Clock) private readonly clock: { now(): Date },
    @inject(TOKENS.ChatappMessageRepository) private readonly chatappMessages: ChatappMessageRepository,
  ) {}

  @Doc({ summary: 'Balance, plan and template allowance', tag: 'Billing' })
  @Get('/balance')
  async balance(@Request() req: ExpressRequest) {
    const user = await this.users.findById(principalOf(req).userId);
    if (!user) answer(ACCOUNT_ANSWERS, 'account_gone');
    const period = allowancePeriod(this.clock.now());
    const included = user.plan.included_template_messages;
    return reply(200, {
      total_balance: user.balance,
      currency: 'USD',
      plan: presentPlan(user),
      included_template_messages_remaining: included > 0 ? allowanceRemaining(included, await this.chatappMessages.allowanceUsed(user.id, period.startsAt)) : 0,
      allowance_resets_at: period.resetsAt.toISOString(),
    });
  }

  @Doc({ summary: 'Ledger entries, newest first', tag: 'Billing', query: LedgerQuery })
  @Get('/ledger')
  async entries(@Request() req: ExpressRequest) {
    const q = parse(LedgerQuery, req.query);
    const page = pageOf(q);
    const result = await this.ledger.list(principalOf(req).userId, page, q.type);
    return reply(200, pageEnvelope(result.items.map(presentLedgerEntry), result.total, page.page, page.perPage));
  }
}
