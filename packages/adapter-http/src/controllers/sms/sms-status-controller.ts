import { Controller, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { SmsMessages, SmsStatusGate, TOKENS } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { ApiRequest } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { INVALID_SIGNATURE } from './sms-answers';

/**
 * Twilio's SMS status callbacks. The pipeline hands `/api/providers/` routes the exact bytes; the
 * signature is over the public URL Twilio called and the form's fields; the gate puts the path on
 * `PUBLIC_BASE_URL` (what the callback was registered with), not on whatever host a proxy passed.
 */
@Controller('/api/providers/sms/twilio')
export class SmsStatusController {
  constructor(
    @inject(TOKENS.SmsStatusGate) private readonly gate: SmsStatusGate,
    @inject(TOKENS.SmsMessages) private readonly messages: SmsMessages,
  ) {}

  @Doc({ summary: 'Signed SMS delivery reports (X-Twilio-Signature)', tag: 'Providers', auth: 'none' })
  @Post('/status')
  async status(@Request() req: ExpressRequest) {
    const form = Object.fromEntries(new URLSearchParams((req as ApiRequest).ctx.rawBody.toString('utf-8')));
    const signature = req.headers['x-twilio-signature'];
    const report = this.gate.open(req.originalUrl, form, typeof signature === 'string' ? signature : null);
    if (report === null) refuse(INVALID_SIGNATURE);
    await this.messages.applyReport(report);
    return reply(200, { received: true });
  }
}
