import { Controller, Get, HttpResponse, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { SandboxCheckout, SandboxPayment, TOKENS } from '@voiceplane/application';
import { Undocumented } from '../../openapi/route-doc';
import { CHECKOUT_PAGE_PATH, invalidChoicePage, payPage, resultPage, unknownLinkPage } from './sandbox-checkout-page';

const CHOICES: readonly SandboxPayment[] = ['pay', 'decline'];

/**
 * The sandbox's hosted checkout page: the `checkout_url` of a sandbox top-up. Bound only while the billing
 * provider is the sandbox; HTML for a browser, no Bearer token (the address's one-time token is the credential).
 */
@Undocumented('a page for the browser the checkout sends the payer to, not an API operation')
@Controller(CHECKOUT_PAGE_PATH)
export class SandboxCheckoutController {
  constructor(@inject(TOKENS.SandboxCheckout) private readonly checkout: SandboxCheckout) {}

  @Get('/')
  withoutToken(): HttpResponse {
    return unknownLinkPage();
  }

  @Get('/:token')
  async show(@Params({ name: 'token' }) token: string): Promise<HttpResponse> {
    const topUp = await this.checkout.open(token);
    if (!topUp) return unknownLinkPage();
    return topUp.status === 'pending'
      ? payPage(topUp)
      : resultPage(topUp, 200, 'This link was used: the top-up is settled.');
  }

  @Post('/:token')
  async settle(@Params({ name: 'token' }) token: string, @Request() req: ExpressRequest): Promise<HttpResponse> {
    if (!(await this.checkout.open(token))) return unknownLinkPage();
    const choice = (req.body as { choice?: unknown } | undefined)?.choice;
    if (!CHOICES.includes(choice as SandboxPayment)) return invalidChoicePage();
    const settled = await this.checkout.pay(token, choice as SandboxPayment);
    if (settled.ok) return resultPage(settled.value);
    const topUp = settled.error === 'top_up_not_found' ? null : await this.checkout.open(token);
    return topUp ? resultPage(topUp, 409, 'This link was already used: nothing changed.') : unknownLinkPage();
  }
}
