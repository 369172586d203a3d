import type * as S3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaBody, MediaStore, S3Bucket, StoredMedia } from '@voiceplane/application';
import { MEDIA_OBJECT_PREFIX } from '@voiceplane/domain';
import { checkedKey } from './media-key';

let s3Module: typeof S3 | undefined;
/** The AWS SDK loads when an S3 store is made, not at start: the default media store is the file system. */
const s3 = (): typeof S3 => (s3Module ??= require('@aws-sdk/client-s3') as typeof S3);

export interface S3MediaStoreOptions extends S3Bucket {
  /** Objects live under this prefix inside the bucket. */
  readonly prefix?: string;
}

/**
 * Media in an S3-compatible bucket through the official AWS SDK (v3): one object per media id
 * with its `Content-Type`, so several instances share one store. Errors from the SDK are replaced
 * by our own messages, which never carry the request (credentials are signed into it).
 */
export class S3MediaStore implements MediaStore {
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(private readonly options: S3MediaStoreOptions) {
    this.client = new (s3().S3Client)({
      region: options.region,
      ...(options.endpoint === null ? {} : { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle,
      // Streamed bodies otherwise go out aws-chunked with a trailing checksum, which many
      // S3-compatible servers store verbatim; the length is always sent instead.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      ...(options.accessKeyId !== null && options.secretAccessKey !== null
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
    this.prefix = options.prefix ?? MEDIA_OBJECT_PREFIX;
  }

  /**
   * The body is first streamed to a temporary file, then sent from it with its length: a body that
   * breaks part-way (over the cap, a dropped download) then fails before anything reaches the
   * bucket, and the file is never held in memory.
   */
  async put(key: string, body: MediaBody, contentType: string): Promise<number> {
    const dir = await mkdtemp(join(tmpdir(), 'vp-media-'));
    try {
      const file = join(dir, 'body');
      await pipeline(Readable.from(body), createWriteStream(file));
      const size = (await stat(file)).size;
      try {
        await this.client.send(
          new (s3().PutObjectCommand)({
            Bucket: this.options.bucket,
            Key: this.prefix + checkedKey(key),
            Body: createReadStream(file),
            ContentType: contentType,
            ContentLength: size,
          }),
        );
      } catch (e) {
        throw new Error(`the media store refused the file: ${reasonOf(e)}`);
      }
      return size;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** S3 answers a delete of a missing key with success too. */
  async delete(key: string): Promise<void> {
    try {
      await this.client.send(
        new (s3().DeleteObjectCommand)({ Bucket: this.options.bucket, Key: this.prefix + checkedKey(key) }),
      );
    } catch (e) {
      throw new Error(`the media store could not delete the file: ${reasonOf(e)}`);
    }
  }

  async open(key: string): Promise<StoredMedia | null> {
    let object;
    try {
      object = await this.client.send(
        new (s3().GetObjectCommand)({ Bucket: this.options.bucket, Key: this.prefix + checkedKey(key) }),
      );
    } catch (e) {
      if (e instanceof s3().NoSuchKey || (e instanceof s3().S3ServiceException && e.$metadata.httpStatusCode === 404))
        return null;
      throw new Error(`the media store could not be read: ${reasonOf(e)}`);
    }
    const body = object.Body as AsyncIterable<Uint8Array> | undefined;
    return {
      contentType: object.ContentType ?? 'application/octet-stream',
      size: object.ContentLength ?? 0,
      body:
        body ??
        (async function* () {
          /* an empty object */
        })(),
    };
  }

  /** Closes the SDK's connections (tests, shutdown). */
  destroy(): void {
    this.client.destroy();
  }
}

function reasonOf(e: unknown): string {
  if (e instanceof s3().S3ServiceException) return `${e.name} (${e.$metadata.httpStatusCode ?? 'no status'})`;
  return e instanceof Error ? e.name : 'unknown error';
}
