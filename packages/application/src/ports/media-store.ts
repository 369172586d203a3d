/** Where voiceplane keeps its own copy of files: what customers send, call recordings (files on the embedded default, a bucket in production). */
export interface MediaStore {
  /**
   * Writes the bytes as they arrive (never the whole file in memory) and answers how many were
   * written. A body that fails part-way stores nothing.
   */
  put(key: string, body: MediaBody, contentType: string): Promise<number>;
  /** Null when nothing is stored under `key`. */
  open(key: string): Promise<StoredMedia | null>;
  /** Deleting a key that holds nothing succeeds. */
  delete(key: string): Promise<void>;
}

export interface StoredMedia {
  readonly contentType: string;
  readonly size: number;
  /** The bytes as they are read (a file or object stream). */
  readonly body: AsyncIterable<Uint8Array>;
}

/** Bytes as they arrive: a stream, or a single chunk already in hand. */
export type MediaBody = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * An S3-compatible bucket: where the media store keeps objects in production, and where LiveKit's
 * egress uploads call recordings so the recording route finds them in that same store.
 */
export interface S3Bucket {
  readonly bucket: string;
  readonly region: string;
  /** An S3-compatible server (MinIO, R2, a local stand-in); null = AWS. */
  readonly endpoint: string | null;
  /** Both or neither; neither = the uploader's own credentials (the SDK's chain, the egress service's). */
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  readonly forcePathStyle: boolean;
}
