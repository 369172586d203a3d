import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ReceiveBillingEvent, TOKENS } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { answer } from '../../pipeline/answers';
import { ApiRequest } from '../../pipeline/request-context';
import type { RouteDoc } from '../../openapi/route-doc';
import { BILLING_INGRESS_ANSWERS } from './top-up-answers';

/** The routes of BillingIngressController as the OpenAPI document describes them. */
export const billingIngressRouteDocs: readonly RouteDoc[] = [
  { method: 'post', path: '/api/providers/billing/:provider/webhook', summary: 'Billing provider events (Stripe-Signature checked)', tag: 'Providers' },
];

/** The billing provider's webhook: the exact bytes received are what the signature covers. */
@Controller('/api/providers/billing')
export class BillingIngressController {
  constructor(@inject(TOKENS.ReceiveBillingEvent) private readonly receive: ReceiveBillingEvent) {}

  @Post('/:provider/webhook')
  async webhook(@Request() req: ExpressRequest, @Params({ name: 'provider' }) provider: string) {
    const raw = (req as ApiRequest).ctx.rawBody ?? Buffer.alloc(0);
    const header = req.headers['stripe-signature'];
    const received = await this.receive.execute(provider, raw, typeof header === 'string' ? header : null);
    if (!received.ok) answer(BILLING_INGRESS_ANSWERS, received.error);
    return reply(200, { received: true });
  }
}
