import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import {
  DELIVERY_SOURCE_TYPES,
  DELIVERY_STATUSES,
  DeliverySourceType,
  DeliveryStatus,
  TargetUrlPolicy,
  WEBHOOK_EVENT_TYPES,
} from '@voiceplane/domain';
import { DeliveryLog, SendTestWebhook, SigningSecrets, TOKENS, WebhookDeliveries } from '@voiceplane/application';
import { Id, PageQuery, pageOf, publicTarget, Str, ListFilters } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf, requestIdOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { presentDelivery, presentDeliveryDetail, presentSigningSecret } from './presenters';
import { DELIVERY_NOT_FOUND, WEBHOOK_ANSWERS, WEBHOOK_SUCCESS } from './webhook-answers';

@ListFilters()
class DeliveriesQuery extends PageQuery {
  @Str({ enum: DELIVERY_STATUSES, description: 'pending, succeeded, failed or canceled' }) status?: DeliveryStatus;
  @Str({
    enum: WEBHOOK_EVENT_TYPES,
    description: 'post_call, conversation_ended, call_started, call_permission_granted, message_status or ping',
  })
  event_type?: string;
  @Str({ enum: DELIVERY_SOURCE_TYPES, description: 'assistant, sender or account' }) source_type?: DeliverySourceType;
  @Id({ description: 'Id of the assistant, sender or account that produced the event' }) source_id?: number;
}

class TestWebhookBody {
  @Str({
    required: true,
    url: true,
    target: publicTarget,
    description: 'Public http(s) URL that receives one signed ping',
  })
  url!: string;
}

const DELIVERY_ID = /^dlv_[0-9A-Za-z]{22}$/;

const tag = 'Webhooks';

/** The delivery log, replay, the signing secret and test pings. */
@Controller('/api/user/webhooks')
export class WebhookController {
  constructor(
    @inject(TOKENS.DeliveryLog) private readonly deliveries: DeliveryLog,
    @inject(TOKENS.WebhookDeliveries) private readonly webhooks: WebhookDeliveries,
    @inject(TOKENS.SendTestWebhook) private readonly testWebhook: SendTestWebhook,
    @inject(TOKENS.SigningSecrets) private readonly secrets: SigningSecrets,
    @inject(TOKENS.TargetUrlPolicy) private readonly targetPolicy: TargetUrlPolicy,
  ) {}

  @Doc({ summary: 'Webhook deliveries, newest first', tag, query: DeliveriesQuery })
  @Get('/deliveries')
  async list(@Request() req: ExpressRequest) {
    const q = parse(DeliveriesQuery, req.query);
    const page = pageOf(q);
    const filter = { status: q.status, eventType: q.event_type, sourceType: q.source_type, sourceId: q.source_id };
    const result = await this.deliveries.list(principalOf(req).userId, filter, page);
    return reply(200, pageEnvelope(result.items.map(presentDelivery), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'One delivery with its payload and attempts', tag })
  @Get('/deliveries/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.deliveries.get(principalOf(req).userId, deliveryId(id));
    if (!found.ok) refuse(WEBHOOK_ANSWERS, found.error);
    return reply(200, { data: presentDeliveryDetail(found.value.delivery, found.value.attempts) });
  }

  @Doc({ summary: 'Send a delivery again: same webhook-id, payload and target, schedule restarted', tag })
  @Post('/deliveries/:id/replay')
  async replay(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const delivery = deliveryId(id);
    return reply(
      req,
      () => this.webhooks.replay(principalOf(req).userId, delivery),
      (result) =>
        result.ok
          ? { status: 200, body: { message: WEBHOOK_SUCCESS.replayQueued, data: presentDelivery(result.value) } }
          : answerFor(WEBHOOK_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'The account signing secret (whsec_…)', tag })
  @Get('/signing-secret')
  async signingSecret(@Request() req: ExpressRequest) {
    const { secret, previousExpiresAt } = await this.secrets.current(principalOf(req).userId);
    return reply(200, presentSigningSecret(secret, previousExpiresAt));
  }

  @Doc({ summary: 'New signing secret; the previous one keeps signing for 24 hours', tag })
  @Post('/signing-secret/rotate')
  async rotate(@Request() req: ExpressRequest) {
    return reply(
      req,
      () => this.secrets.rotate(principalOf(req).userId),
      ({ secret, previousExpiresAt }) => ({
        status: 200,
        body: { message: WEBHOOK_SUCCESS.secretRotated, ...presentSigningSecret(secret, previousExpiresAt) },
      }),
    );
  }

  @Doc({ summary: 'Send one signed ping now and record it as a delivery (10 per minute)', tag, body: TestWebhookBody })
  @Post('/test')
  async test(@Request() req: ExpressRequest) {
    const body = parse(TestWebhookBody, req.body, 'standard', { targetPolicy: this.targetPolicy });
    return reply(
      req,
      () => this.testWebhook.execute(principalOf(req).userId, body.url, requestIdOf(req)),
      (result) => ({
        status: 200,
        body: {
          data: {
            delivery_id: result.deliveryId,
            ok: result.ok,
            status_code: result.statusCode,
            duration_ms: result.durationMs,
            error: result.error,
          },
        },
      }),
    );
  }
}

/** Ids of another shape are simply not found. */
function deliveryId(raw: string): string {
  if (!DELIVERY_ID.test(raw)) refuse(DELIVERY_NOT_FOUND);
  return raw;
}
