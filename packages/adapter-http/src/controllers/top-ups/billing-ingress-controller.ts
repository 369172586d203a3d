import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ReceiveBillingEvent, TOKENS } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { ApiRequest } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { BILLING_INGRESS_ANSWERS } from './top-up-answers';

/** The billing provider's webhook: the exact bytes received are what the signature covers. */
@Controller('/api/providers/billing')
export class BillingIngressController {
  constructor(@inject(TOKENS.ReceiveBillingEvent) private readonly receive: ReceiveBillingEvent) {}

  @Doc({ summary: 'Billing provider events (Stripe-Signature checked)', tag: 'Providers' })
  @Post('/:provider/webhook')
  async webhook(@Request() req: ExpressRequest, @Params({ name: 'provider' }) provider: string) {
    const raw = (req as ApiRequest).ctx.rawBody ?? Buffer.alloc(0);
    const header = req.headers['stripe-signature'];
    const received = await this.receive.execute(provider, raw, typeof header === 'string' ? header : null);
    if (!received.ok) refuse(BILLING_INGRESS_ANSWERS, received.error);
    return reply(200, { received: true });
  }
}
