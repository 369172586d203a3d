import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TOKENS, ToolPreview, ToolPreviewInput } from '@voiceplane/application';
import { validateDto } from '../../validation';
import { pathId, reply } from '../../pipeline/responses';
import { refuse, validationAnswer, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { ToolPreviewBody } from './tool-body';
import { presentToolCallResult, presentToolRequest } from './tool-presenters';
import { TOOL_ANSWERS, TOOL_NOT_FOUND } from './tool-answers';

/** Render and test. The test quota (10/min per user) is a route quota of the module. */
@Controller('/api/user/tools')
export class ToolPreviewController {
  constructor(@inject(TOKENS.ToolPreview) private readonly preview: ToolPreview) {}

  @Doc({ summary: 'Dry run: the exact request, without network or DNS', tag: 'Tools', body: ToolPreviewBody })
  @Post('/:id/render')
  async render(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const rendered = await this.preview.render(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND), () =>
      previewInput(req),
    );
    if (!rendered.ok) refuse(TOOL_ANSWERS, rendered.error);
    return reply(200, { data: presentToolRequest(rendered.value) });
  }

  @Doc({ summary: 'Send one real request as the gateway would (10/min)', tag: 'Tools', body: ToolPreviewBody })
  @Post('/:id/test')
  async test(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const toolId = pathId(id, TOOL_NOT_FOUND);
    return reply(
      req,
      () => this.preview.test(principalOf(req).userId, toolId, () => previewInput(req)),
      (run) => {
        if (!run.ok) return answerFor(TOOL_ANSWERS, run.error);
        const { target_check: _unchecked, ...request } = presentToolRequest(run.value.request, run.value.webhookId);
        return { status: 200, body: { data: { request, result: presentToolCallResult(run.value.result) } } };
      },
    );
  }
}

/** Read once the tool is known to be the caller's: a missing tool is the 404 even when the body is invalid too, as on PUT. */
function previewInput(req: ExpressRequest): ToolPreviewInput {
  const body = validateDto(ToolPreviewBody, req.body);
  if (!body.ok) refuse(validationAnswer(body.errors));
  const { params, variables, call_id: callId } = body.value;
  return { params: params ?? {}, variables: variables ?? {}, callId: callId ?? null };
}
