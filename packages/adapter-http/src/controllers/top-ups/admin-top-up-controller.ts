import { Controller, Get } from '@inversifyjs/http-core';
import { inject } from 'inversify';
import { TOKENS, TopUpQueries } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { isoOrNull } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { presentTopUp } from './presenters';

/** Operators' view of top-ups whose provider answer was lost and could not be reconciled. */
@Controller('/api/admin/billing/top-ups')
export class AdminTopUpController {
  constructor(@inject(TOKENS.TopUpQueries) private readonly topUps: TopUpQueries) {}

  @Doc({ summary: 'Top-ups the reconciliation sweep leaves to an operator', tag: 'Admin', auth: 'admin' })
  @Get('/unreconcilable')
  async unreconcilable() {
    const rows = await this.topUps.unreconcilable();
    return reply(200, {
      data: rows.map((r) => ({
        ...presentTopUp(r.topUp),
        user_id: r.topUp.userId,
        provider_reference: r.providerReference,
        reason: r.unreconcilable,
        checked_at: isoOrNull(r.checkedAt),
      })),
    });
  }
}
