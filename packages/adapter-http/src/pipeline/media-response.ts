import { HttpResponse, isHttpResponseSymbol } from '@inversifyjs/http-core';
import { Readable } from 'node:stream';
import type { StoredMedia } from '@voiceplane/application';

/**
 * A stored file streamed with the type it was stored with. Never sniffed: what a customer or a
 * recorder produced is not a page of ours.
 */
export function mediaResponse(stored: StoredMedia, headers: Readonly<Record<string, string>>): HttpResponse {
  return {
    [isHttpResponseSymbol]: true,
    statusCode: 200,
    body: stored.body instanceof Readable ? stored.body : Readable.from(stored.body),
    headers: {
      'Content-Type': stored.contentType,
      'Content-Length': String(stored.size),
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    },
  };
}
