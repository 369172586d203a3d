import { err, MediaType, mediaTypeOf, ok, Result } from '@voiceplane/domain';
import { OutboundError, OutboundHttpClient } from '../ports';

/** Media fetches wait 15 s and read at most 16 MB. */
export const MEDIA_FETCH_TIMEOUT_MS = 15_000;
export const MEDIA_MAX_BYTES = 16 * 1024 * 1024;

export type MediaFetchFailed = { readonly code: 'media_fetch_failed'; readonly reason: string };

const REASONS: Readonly<Record<Exclude<OutboundError, 'http_error'>, string>> = {
  blocked_target: 'the address is not a public address',
  timeout: 'no answer within 15 seconds',
  connection_failed: 'the connection failed',
  response_too_large: 'the file is larger than 16 MB',
};

/**
 * Freeform media: fetched once through the guarded client before the send, so an
 * address the chat app could not read either is refused with a reason; the kind is read from the
 * answer's `Content-Type`. Providers then send the checked URL by link.
 */
export class MediaFetcher {
  constructor(private readonly http: OutboundHttpClient) {}

  async check(url: string): Promise<Result<MediaType, MediaFetchFailed>> {
    const res = await this.http.send({
      method: 'GET',
      url,
      timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
      maxResponseBytes: MEDIA_MAX_BYTES,
    });
    if (res.ok) return ok(mediaTypeOf(res.headers['content-type'] ?? null));
    const reason =
      res.error === null || res.error === 'http_error'
        ? `the server answered ${res.statusCode ?? 'nothing'}`
        : REASONS[res.error];
    return err({ code: 'media_fetch_failed', reason });
  }
}
