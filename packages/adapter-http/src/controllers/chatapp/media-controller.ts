import { Controller, Get, HttpResponse, Params, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { InboundMediaDownloads, TOKENS } from '@voiceplane/application';
import { refuse } from '../../pipeline/answers';
import { mediaResponse } from '../../pipeline/media-response';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { SANDBOX_NOT_FOUND } from './chatapp-answers';

/** Media ids are `med_` tokens; anything else cannot name one. */
const MEDIA_ID = /^med_[A-Za-z0-9]{22}$/;

/**
 * Voiceplane's copy of an inbound file, streamed with the type it was sent with. Another account's
 * media, an unknown id and a file not downloaded yet all look the same: 404 `{"message":"Not found."}`.
 */
@Controller('/api/user/chatapp/media')
export class ChatappMediaController {
  constructor(@inject(TOKENS.InboundMediaDownloads) private readonly media: InboundMediaDownloads) {}

  @Doc({
    summary: 'A file a customer sent, as voiceplane keeps it (owner only; the stored content type)',
    tag: 'Chat app',
  })
  @Get('/:media_id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'media_id' }) id: string): Promise<HttpResponse> {
    if (!MEDIA_ID.test(id)) refuse(SANDBOX_NOT_FOUND);
    const stored = await this.media.open(principalOf(req).userId, id);
    if (stored === null) refuse(SANDBOX_NOT_FOUND);
    // A customer's file is not a page of ours: never run as one.
    return mediaResponse(stored, {
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, max-age=3600',
    });
  }
}
