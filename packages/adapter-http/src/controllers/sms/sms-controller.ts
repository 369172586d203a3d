import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { SendSms, SmsMessages, TOKENS } from '@voiceplane/application';
import { SMS_BODY_MAX } from '@voiceplane/domain';
import { Id, PageQuery, pageOf, Str } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { answerFor, refuse } from '../../pipeline/answers';
import { principalOf, requestIdOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { SEND_SMS_ANSWERS, SMS_NOT_FOUND } from './sms-answers';
import { presentSentSms, presentSms } from './sms-presenters';

export class SendSmsBody {
  @Id({ required: true, description: 'The id of one of your phone numbers (must be SMS-capable)', example: 41 })
  from!: number;
  @Str({
    required: true,
    max: 64,
    description: 'International format; spaces, dashes and a leading 00 are accepted and normalised to E.164',
    example: '+4915123456789',
  })
  to!: string;
  @Str({
    required: true,
    max: SMS_BODY_MAX,
    trim: false,
    description: 'At most 300 characters; billed per segment (160/153 GSM-7, 70/67 UCS-2)',
    example: 'Hello! This is a test SMS.',
  })
  body!: string;
}

const SMS_ID = /^(?:SMS_)?([1-9]\d{0,15})$/;

/** Famulor's SMS send, and the account's SMS log beside it. */
@Controller('/api/user/sms')
export class SmsController {
  constructor(
    @inject(TOKENS.SendSms) private readonly sendSms: SendSms,
    @inject(TOKENS.SmsMessages) private readonly messages: SmsMessages,
  ) {}

  @Doc({ summary: 'Send an SMS from one of your phone numbers', tag: 'SMS', body: SendSmsBody, success: 200 })
  @Post('/')
  async send(@Request() req: ExpressRequest) {
    const body = parse(SendSmsBody, req.body);
    const render = (sent: Awaited<ReturnType<SendSms['execute']>>) =>
      sent.ok
        ? { status: 200, body: { message: 'SMS sent successfully', data: presentSentSms(sent.value) } }
        : answerFor(SEND_SMS_ANSWERS, sent.error);
    return reply(
      req,
      () =>
        this.sendSms.execute({
          userId: principalOf(req).userId,
          fromNumberId: body.from,
          to: body.to,
          body: body.body,
          requestId: requestIdOf(req),
        }),
      render,
    );
  }

  @Doc({ summary: 'SMS sent from the account, newest first', tag: 'SMS', query: PageQuery })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const page = pageOf(parse(PageQuery, req.query));
    const result = await this.messages.list(principalOf(req).userId, page);
    return reply(200, pageEnvelope(result.items.map(presentSms), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'One SMS and its delivery status (id or sms_id)', tag: 'SMS' })
  @Get('/:id')
  async one(@Request() req: ExpressRequest, @Params({ name: 'id' }) raw: string) {
    const id = SMS_ID.exec(raw)?.[1];
    const found = id === undefined ? null : await this.messages.find(principalOf(req).userId, Number(id));
    if (found === null) refuse(SMS_NOT_FOUND);
    return reply(200, { data: presentSms(found) });
  }
}
