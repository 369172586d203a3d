import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { SandboxSmsControls, TOKENS } from '@voiceplane/application';
import { SmsStatus } from '@voiceplane/domain';
import { Str } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { presentSms } from './sms-presenters';

const OUTBOX_LIMIT = 200;
const NOT_FOUND = { status: 404, body: { message: 'Not found.' } };
const UNCHANGED = { status: 409, body: { message: 'The SMS already has a final status.' } };

class SandboxSmsStatusBody {
  @Str({ required: true, enum: ['delivered', 'undelivered', 'failed'] }) status!: SmsStatus;
  @Str({ nullable: true, max: 32 }) error_code?: string | null;
  @Str({ nullable: true, max: 500 }) error_message?: string | null;
}

/** The sandbox SMS controls; they exist only while the SMS provider is the sandbox. */
@Controller('/api/sandbox/sms')
export class SandboxSmsController {
  constructor(@inject(TOKENS.SandboxSmsControls) private readonly sandbox: SandboxSmsControls) {}

  @Doc({ summary: 'Sandbox: the SMS the sandbox provider sent, newest first', tag: 'Sandbox' })
  @Get('/outbox')
  async outbox(@Request() req: ExpressRequest) {
    const sent = await this.sandbox.outbox(principalOf(req).userId, OUTBOX_LIMIT);
    return reply(200, {
      data: sent.map((m) => ({
        provider_message_id: m.providerMessageId,
        phone_number_id: m.phoneNumberId,
        from: m.from,
        to: m.to,
        body: m.body,
        at: m.at.toISOString(),
      })),
    });
  }

  @Doc({
    summary: 'Sandbox: the carrier reports what became of an SMS',
    tag: 'Sandbox',
    body: SandboxSmsStatusBody,
    success: 200,
  })
  @Post('/:id/status')
  async status(@Request() req: ExpressRequest, @Params({ name: 'id' }) raw: string) {
    // An id of the wrong shape is an unknown route (404) before the body is read, as everywhere.
    const id = /^(?:SMS_)?([1-9]\d{0,15})$/.exec(raw)?.[1];
    if (id === undefined) refuse(NOT_FOUND);
    const body = parse(SandboxSmsStatusBody, req.body);
    const reported = await this.sandbox.report(principalOf(req).userId, Number(id), body.status, {
      code: body.error_code ?? null,
      message: body.error_message ?? null,
    });
    if (!reported.ok) refuse(reported.error === 'not_found' ? NOT_FOUND : UNCHANGED);
    return reply(200, { ok: true, data: presentSms(reported.value) });
  }
}
