import { Controller, Get, HttpResponse, isHttpResponseSymbol, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject, multiInject } from 'inversify';
import { ChatappIngress, ChatappIngressGate, TOKENS } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { ApiRequest } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { INGRESS_ANSWERS } from './chatapp-ingress-answers';

/**
 * Chat-app provider ingress. The pipeline hands `/api/providers/` routes the
 * exact bytes received (body-reader), because the signature is over those bytes, not over any
 * re-serialised JSON. Each served provider has a gate; any other name is unknown.
 */
@Controller('/api/providers/chatapp')
export class ChatappIngressController {
  constructor(
    @multiInject(TOKENS.ChatappIngressGate) private readonly gates: ChatappIngressGate[],
    @inject(TOKENS.ChatappIngress) private readonly ingress: ChatappIngress,
  ) {}

  @Doc({
    summary: 'Provider subscription handshake (verify token, challenge echoed as text/plain)',
    tag: 'Providers',
    auth: 'none',
  })
  @Get('/:provider/webhook')
  challenge(@Params({ name: 'provider' }) provider: string, @Request() req: ExpressRequest): HttpResponse {
    const challenge = this.gate(provider).answerChallenge(req.query as Record<string, unknown>);
    if (challenge === null) refuse(INGRESS_ANSWERS, 'verification_failed');
    // The one answer of the product that is not JSON: the provider compares the body to its challenge.
    return {
      [isHttpResponseSymbol]: true,
      statusCode: 200,
      body: challenge,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    };
  }

  @Doc({ summary: 'Signed provider notifications, stored and handled asynchronously', tag: 'Providers', auth: 'none' })
  @Post('/:provider/webhook')
  async receive(@Params({ name: 'provider' }) provider: string, @Request() req: ExpressRequest) {
    const gate = this.gate(provider);
    const signature = req.headers['x-hub-signature-256'];
    const items = gate.open((req as ApiRequest).ctx.rawBody, typeof signature === 'string' ? signature : null);
    if (items === null) refuse(INGRESS_ANSWERS, 'invalid_signature');
    await this.ingress.receive(gate.provider, items);
    return reply(200, { received: true });
  }

  private gate(provider: string): ChatappIngressGate {
    return this.gates.find((g) => g.provider === provider) ?? refuse(INGRESS_ANSWERS, 'unknown_provider');
  }
}
