import { Controller, Get, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { LedgerEntryType } from '@voiceplane/domain';
import { BillingQueries, TOKENS } from '@voiceplane/application';
import { PageQuery, pageOf, Str, ListFilters } from '../validation';
import { parse, reply } from '../pipeline/responses';
import { refuse } from '../pipeline/answers';
import { ACCOUNT_ANSWERS } from './account-answers';
import { principalOf } from '../pipeline/request-context';
import { presentLedgerEntry, presentPlan } from '../presenters/account';
import { pageEnvelope } from '../presenters/format';
import { Doc } from '../openapi/route-doc';

@ListFilters()
class LedgerQuery extends PageQuery {
  @Str({ enum: ['top_up', 'charge', 'adjustment'] }) type?: LedgerEntryType;
}

@Controller('/api/user/billing')
export class BillingController {
  constructor(@inject(TOKENS.BillingQueries) private readonly billing: BillingQueries) {}

  @Doc({ summary: 'Balance, what calls in progress reserve of it, plan and template allowance', tag: 'Billing' })
  @Get('/balance')
  async balance(@Request() req: ExpressRequest) {
    const read = await this.billing.balance(principalOf(req).userId);
    if (!read.ok) refuse(ACCOUNT_ANSWERS, read.error);
    const { user, reserved, includedTemplateMessagesRemaining, allowanceResetsAt } = read.value;
    return reply(200, {
      total_balance: user.balance,
      reserved,
      currency: 'USD',
      plan: presentPlan(user),
      included_template_messages_remaining: includedTemplateMessagesRemaining,
      allowance_resets_at: allowanceResetsAt.toISOString(),
    });
  }

  @Doc({ summary: 'Ledger entries, newest first', tag: 'Billing', query: LedgerQuery })
  @Get('/ledger')
  async entries(@Request() req: ExpressRequest) {
    const q = parse(LedgerQuery, req.query);
    const page = pageOf(q);
    const result = await this.billing.entries(principalOf(req).userId, page, q.type);
    return reply(200, pageEnvelope(result.items.map(presentLedgerEntry), result.total, page.page, page.perPage));
  }
}
