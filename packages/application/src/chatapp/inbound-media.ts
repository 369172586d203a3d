import type { Clock } from '../ports';
import type { OutboundError, OutboundHttpClient } from '../ports';
import type { JobHandler, JobScheduler, WorkLogger } from '../events';
import { MEDIA_FETCH_TIMEOUT_MS, MEDIA_MAX_BYTES } from './media-fetch';
import type { SenderRepository } from './ports';
import type { ProviderSenders } from './provider-senders';
import { ChatappProvider, ChatappProviderRefusal } from './provider-ports';
import type { MediaBody, MediaStore, StoredMedia } from '../ports';

// The store is shared with call recordings; it stays reachable from here for the chat app's users.
export type { MediaBody, MediaStore, S3Bucket, StoredMedia } from '../ports';

/** Where an inbound file comes from: the chat app's own media id, or a URL the sandbox's inbound message was given. */
export type MediaSource =
  | { readonly kind: 'provider'; readonly ref: string }
  | { readonly kind: 'url'; readonly ref: string };

export interface InboundMedia {
  readonly id: string;
  readonly userId: number;
  readonly senderId: number;
  readonly messageId: number;
  readonly source: MediaSource;
  readonly status: 'pending' | 'stored' | 'failed';
  readonly contentType: string | null;
}

export interface InboundMediaRepository {
  /** In the caller's transaction, beside the message it belongs to. */
  create(media: {
    id: string;
    userId: number;
    senderId: number;
    messageId: number;
    source: MediaSource;
    now: Date;
  }): Promise<void>;
  find(id: string): Promise<InboundMedia | null>;
  /** Null for another account's media, a missing id and media not stored yet alike. */
  findStoredOwned(userId: number, id: string): Promise<InboundMedia | null>;
  /** The copy is kept: the message's `media_url` becomes `mediaUrl` and its `media_error` clears. */
  markStored(id: string, stored: { contentType: string; size: number; mediaUrl: string }, now: Date): Promise<void>;
  /** The download failed (it is retried): the message keeps `media_url: null` and shows `media_error`. */
  markFailed(id: string, error: string, now: Date): Promise<void>;
  /**
   * Removes up to `limit` media created before `cutoff`; their messages lose `media_url` and show
   * `note` as `media_error`. Answers how many went. Every removed row — also one removed with its
   * message or account — is listed by `deletedIds` until `forgetDeleted`.
   */
  expireCreatedBefore(cutoff: Date, note: string, limit: number): Promise<number>;
  /** Ids of removed media whose files may still be in the store, oldest first. */
  deletedIds(limit: number): Promise<string[]>;
  forgetDeleted(ids: readonly string[]): Promise<void>;
}

/** What a chat-app provider or the guarded client handed over. */
export interface DownloadedMedia {
  readonly body: MediaBody;
  readonly contentType: string;
}

export const INBOUND_MEDIA_JOB = 'chatapp.media.download';
/** A failed download is tried again this much later, then by the job runner's backoff. */
const RETRY_AFTER_MS = 30_000;
const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

const URL_FAILURES: Readonly<Record<OutboundError, string>> = {
  http_error: 'the server answered an error',
  blocked_target: 'the address is not a public address',
  timeout: 'no answer within 15 seconds',
  connection_failed: 'the connection failed',
  response_too_large: 'the file is larger than 16 MB',
};

/** Where the media record and its bytes are kept, and where its retry job is scheduled. */
export interface InboundMediaStorage {
  readonly media: InboundMediaRepository;
  readonly store: MediaStore;
  readonly jobs: JobScheduler;
}

/**
 * Inbound media kept by voiceplane: registered beside its message (with a retry job as a safety
 * net), downloaded at once because the chat app's link expires, and served only to its owner.
 */
export class InboundMediaDownloads {
  private readonly media: InboundMediaRepository;
  private readonly store: MediaStore;
  private readonly jobs: JobScheduler;

  constructor(
    storage: InboundMediaStorage,
    private readonly sources: {
      readonly provider: ChatappProvider;
      readonly senders: SenderRepository;
      readonly providerSenders: ProviderSenders;
      readonly http: OutboundHttpClient;
    },
    private readonly publicBaseUrl: string,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {
    ({ media: this.media, store: this.store, jobs: this.jobs } = storage);
  }

  /** Inside the message's transaction: the record and a retry job, so a crash before the download loses nothing. */
  async register(media: {
    id: string;
    userId: number;
    senderId: number;
    messageId: number;
    source: MediaSource;
  }): Promise<void> {
    const now = this.clock.now();
    await this.media.create({ ...media, now });
    await this.jobs.schedule({
      kind: INBOUND_MEDIA_JOB,
      key: jobKey(media.id),
      payload: { media_id: media.id },
      runAt: new Date(now.getTime() + RETRY_AFTER_MS),
    });
  }

  /** True once the copy is kept (also when it already was). A failure is recorded on the message. */
  async download(id: string): Promise<boolean> {
    const media = await this.media.find(id);
    if (media === null) return true;
    if (media.status === 'stored') return true;
    const fetched = await this.fetch(media);
    if ('error' in fetched) {
      this.log.warn({ media_id: id, error: fetched.error }, 'inbound media could not be downloaded; it is retried');
      await this.media.markFailed(id, fetched.error, this.clock.now());
      return false;
    }
    let size: number;
    try {
      size = await this.store.put(id, fetched.body, fetched.contentType);
    } catch (e) {
      // The stream broke or went over the cap while it was written: retried like any failed download.
      const error =
        e instanceof ChatappProviderRefusal
          ? e.reason
          : e instanceof Error
            ? e.message
            : 'the file could not be stored';
      this.log.warn({ media_id: id, error }, 'inbound media could not be stored; it is retried');
      await this.media.markFailed(id, error, this.clock.now());
      return false;
    }
    await this.media.markStored(
      id,
      { contentType: fetched.contentType, size, mediaUrl: this.urlOf(id) },
      this.clock.now(),
    );
    await this.jobs.cancel([jobKey(id)]);
    return true;
  }

  /** `GET /api/user/chatapp/media/{media_id}`: the owner's stored copy, else null. */
  async open(userId: number, id: string): Promise<StoredMedia | null> {
    const media = await this.media.findStoredOwned(userId, id);
    return media === null ? null : this.store.open(id);
  }

  urlOf(id: string): string {
    return `${this.publicBaseUrl}/api/user/chatapp/media/${id}`;
  }

  private async fetch(media: InboundMedia): Promise<DownloadedMedia | { error: string }> {
    if (media.source.kind === 'url') {
      const res = await this.sources.http.send({
        method: 'GET',
        url: media.source.ref,
        timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
        maxResponseBytes: MEDIA_MAX_BYTES,
        keepBytes: true,
      });
      if (!res.ok || res.bytes === undefined) {
        return {
          error:
            res.error === 'http_error' || res.error === null
              ? `the server answered ${res.statusCode ?? 'nothing'}`
              : URL_FAILURES[res.error],
        };
      }
      return { body: [res.bytes], contentType: contentTypeOf(res.headers['content-type']) };
    }
    const sender = await this.sources.senders.findOwned(media.userId, media.senderId);
    if (sender === null) return { error: 'the sender no longer exists' };
    try {
      const got = await this.sources.provider.downloadMedia(
        await this.sources.providerSenders.of(sender),
        media.source.ref,
        MEDIA_MAX_BYTES,
      );
      return { body: got.body, contentType: contentTypeOf(got.contentType) };
    } catch (e) {
      return {
        error:
          e instanceof ChatappProviderRefusal
            ? e.reason
            : e instanceof Error
              ? e.message
              : 'the chat app could not be reached',
      };
    }
  }
}

const jobKey = (id: string) => `chatapp-media:${id}`;

/** The type as sent, without parameters a browser does not need; a missing one is plain bytes. */
function contentTypeOf(raw: string | null | undefined): string {
  const type = raw?.split(';')[0].trim().toLowerCase() ?? '';
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : FALLBACK_CONTENT_TYPE;
}

/** The retry: throwing leaves the job to the runner's backoff. */
export function inboundMediaJob(downloads: () => InboundMediaDownloads): JobHandler {
  return {
    kind: INBOUND_MEDIA_JOB,
    handle: async (job) => {
      const id = (job.payload as { media_id: string }).media_id;
      if (!(await downloads().download(id))) throw new Error(`inbound media ${id} is not downloaded yet`);
    },
  };
}
