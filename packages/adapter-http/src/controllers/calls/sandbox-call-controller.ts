import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { Clock, SandboxCallControls, SandboxTextCalls, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { Str } from '../../validation';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { CallEndBody, transcriptItems } from './call-body';
import { presentEventAnswer } from './call-presenters';
import { acceptedEvent } from './runtime-call-controller';
import { SANDBOX_CALL_EVENT_ANSWERS, SANDBOX_NOT_FOUND, SAY_ANSWERS } from './call-answers';

export class SayBody {
  @Str({ required: true, max: 2000, description: 'What the customer says, 1–2000 characters' }) text!: string;
}

/** The sandbox call controls `answer`, `finish` and `say`: bound only while the voice runtime is the sandbox. */
@Controller('/api/sandbox/calls')
export class SandboxCallController {
  constructor(
    @inject(TOKENS.SandboxCallControls) private readonly sandbox: SandboxCallControls,
    @inject(TOKENS.SandboxTextCalls) private readonly textCalls: SandboxTextCalls,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Doc({ summary: 'The customer answers a sandbox call', tag: 'Sandbox' })
  @Post('/:id/answer')
  async refuse(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const callId = pathId(id, SANDBOX_NOT_FOUND);
    return reply(
      200,
      presentEventAnswer(
        acceptedEvent(await this.sandbox.answer(principalOf(req).userId, callId), SANDBOX_CALL_EVENT_ANSWERS),
        false,
      ),
    );
  }

  @Doc({ summary: 'A sandbox call ends (answered first when completed)', tag: 'Sandbox', body: CallEndBody })
  @Post('/:id/finish')
  async finish(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const callId = pathId(id, SANDBOX_NOT_FOUND);
    const body = parse(CallEndBody, req.body);
    const transcript =
      body.transcript === undefined ? undefined : transcriptItems(body.transcript, 'transcript', this.clock.now());
    const outcome = await this.sandbox.finish(principalOf(req).userId, callId, {
      status: body.status,
      duration: body.duration,
      transcript,
      extractedVariables: body.extracted_variables,
      recordingUrl: body.recording_url,
    });
    return reply(200, presentEventAnswer(acceptedEvent(outcome, SANDBOX_CALL_EVENT_ANSWERS), false));
  }

  @Doc({
    summary: 'The customer says a line on a sandbox call; the assistant answers as on a real call',
    tag: 'Sandbox',
    body: SayBody,
  })
  @Post('/:id/say')
  async say(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const callId = pathId(id, SANDBOX_NOT_FOUND);
    const body = parse(SayBody, req.body);
    const said = await this.textCalls.say(principalOf(req).userId, callId, body.text);
    if (!said.ok) refuse(SAY_ANSWERS, said.error);
    const { reply: text, toolCalls, ended, call } = said.value;
    return reply(200, {
      ok: true,
      reply: text,
      tool_calls: toolCalls.map((c) => ({ name: c.name, ok: c.ok, status_code: c.statusCode })),
      ended,
      call,
    });
  }
}
