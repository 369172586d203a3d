import { Controller, Get, HttpResponse, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CallRecordings, TOKENS } from '@voiceplane/application';
import { pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { RECORDING_NOT_FOUND, RECORDING_NOTICE_UNSIGNED } from './call-answers';
import { mediaResponse } from '../../pipeline/media-response';
import { ApiRequest, principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';

/**
 * A call's recording, streamed from the media store. The call must be the caller's and recorded;
 * a recording still being uploaded answers 404 like one that never was.
 */
@Controller('/api/user/calls')
export class CallRecordingController {
  constructor(@inject(TOKENS.CallRecordings) private readonly recordings: CallRecordings) {}

  @Doc({ summary: "The call's recording (owner only; the address in recording_url)", tag: 'Calls' })
  @Get('/:id/recording')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string): Promise<HttpResponse> {
    const stored = await this.recordings.open(principalOf(req).userId, pathId(id, RECORDING_NOT_FOUND));
    if (stored === null) refuse(RECORDING_NOT_FOUND);
    return mediaResponse(stored, {
      'Content-Disposition': `attachment; filename="call-${id}.ogg"`,
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, max-age=3600',
    });
  }
}

/** LiveKit's webhooks: the signature covers the exact bytes received. */
@Controller('/api/providers/livekit')
export class LiveKitRecordingController {
  constructor(@inject(TOKENS.CallRecordings) private readonly recordings: CallRecordings) {}

  @Doc({ summary: 'LiveKit webhooks (JWT signed with the API secret); ends of call recordings', tag: 'Providers' })
  @Post('/webhook')
  async webhook(@Request() req: ExpressRequest) {
    const raw = ((req as ApiRequest).ctx.rawBody ?? Buffer.alloc(0)).toString('utf8');
    const header = req.headers.authorization ?? req.headers.authorize;
    const received = await this.recordings.receiveNotice(raw, typeof header === 'string' ? header : undefined);
    if (!received.ok) refuse(RECORDING_NOTICE_UNSIGNED);
    return reply(200, { received: true });
  }
}
