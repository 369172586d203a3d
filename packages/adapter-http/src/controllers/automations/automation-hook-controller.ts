import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { JsonObject } from '@voiceplane/domain';
import { RateDecision, TOKENS, TriggerWebhook } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { Answer, refuse } from '../../pipeline/answers';
import { tooManyBody } from '../../pipeline/families';
import { isPlainObject } from '../../validation';
import { Doc } from '../../openapi/route-doc';
import {
  AUTOMATION_NOT_FOUND,
  HOOK_BODY_NOT_OBJECT,
  HOOK_DISABLED,
  hookTimeout,
  isPublicId,
} from './automation-answers';

const TOKEN = /^[0-9A-Za-z]{1,64}$/;

const rateHeaders = (d: RateDecision): Record<string, string> => ({
  'X-RateLimit-Limit': String(d.reported.limit),
  'X-RateLimit-Remaining': String(d.reported.remaining),
  'X-RateLimit-Reset': String(d.reported.resetEpochSeconds),
});

/**
 * `POST /api/hooks/automations/{id}/{token}`. The token in the path is the
 * credential. The body reader already accepts form bodies here and caps them at 64 KB; the
 * idempotency middleware replays an answer given to the same `Idempotency-Key` (scope: this URL).
 */
@Controller('/api/hooks/automations')
export class AutomationHookController {
  constructor(@inject(TOKENS.TriggerWebhook) private readonly hooks: TriggerWebhook) {}

  @Doc({
    summary: 'Trigger a webhook automation: 202 with the run id, or the sync reply',
    tag: 'Automations',
    success: 202,
    auth: 'hook',
  })
  @Post('/:id/:token')
  async trigger(
    @Request() req: ExpressRequest,
    @Params({ name: 'id' }) id: string,
    @Params({ name: 'token' }) token: string,
  ) {
    const automation = isPublicId(id) && TOKEN.test(token) ? await this.hooks.authorise(id, token) : null;
    if (automation === null) refuse(AUTOMATION_NOT_FOUND);
    const decision = await this.hooks.admit(automation);
    const headers = rateHeaders(decision);
    if (!decision.allowed) {
      refuse({
        status: 429,
        body: tooManyBody('automation', decision.retryAfterSeconds),
        headers: { ...headers, 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
    const body: unknown = req.body === undefined || req.body === null ? {} : req.body;
    if (!isPlainObject(body)) refuse({ ...HOOK_BODY_NOT_OBJECT, headers });

    return reply(
      req,
      () => this.hooks.trigger(automation, body as JsonObject),
      (answered): Answer => {
        switch (answered.kind) {
          case 'disabled':
            return { ...HOOK_DISABLED, headers };
          case 'accepted':
            return { status: 202, body: { accepted: true, run_id: answered.runId }, headers };
          case 'timeout':
            return { ...hookTimeout(answered.runId), headers };
          case 'replied':
            return { status: 200, body: answered.body as object, headers };
        }
      },
    );
  }
}
