import { Controller, Get, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { AutoRechargeSettingsService, TOKENS } from '@voiceplane/application';
import { Bool, Num } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { refuse, validationAnswer } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { fieldErrors } from '../../pipeline/field-messages';
import { Doc } from '../../openapi/route-doc';
import { presentAutoRecharge } from './presenters';
import { BILLING_FIELD_MESSAGES } from './top-up-answers';

class AutoRechargeBody {
  @Bool({ description: 'Turning it on needs a card saved by a paid top-up' }) enabled?: boolean;
  @Num({ description: 'USD, 0–1000, at most 2 decimals: a charge leaving the balance below it recharges', example: 5 })
  threshold?: number;
  @Num({ description: 'USD, 5–10000, at most 2 decimals: what each recharge tops up', example: 25 }) amount?: number;
}

/** Auto-recharge. */
@Controller('/api/user/billing/auto-recharge')
export class AutoRechargeController {
  constructor(@inject(TOKENS.AutoRechargeSettings) private readonly settings: AutoRechargeSettingsService) {}

  @Doc({ summary: 'Auto-recharge settings and the state of its attempts', tag: 'Billing' })
  @Get('/')
  async get(@Request() req: ExpressRequest) {
    return reply(200, { data: presentAutoRecharge(await this.settings.view(principalOf(req).userId)) });
  }

  @Doc({ summary: 'Change auto-recharge (only the fields sent)', tag: 'Billing', body: AutoRechargeBody })
  @Put('/')
  async change(@Request() req: ExpressRequest) {
    const body = parse(AutoRechargeBody, req.body);
    const changed = await this.settings.change(principalOf(req).userId, {
      ...(body.enabled !== undefined && body.enabled !== null ? { enabled: body.enabled } : {}),
      ...(body.threshold !== undefined && body.threshold !== null ? { threshold: body.threshold } : {}),
      ...(body.amount !== undefined && body.amount !== null ? { amount: body.amount } : {}),
    });
    if (!changed.ok) refuse(validationAnswer(fieldErrors(changed.error, BILLING_FIELD_MESSAGES)));
    return reply(200, { data: presentAutoRecharge(changed.value) });
  }
}
