import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaBody, MediaStore, StoredMedia } from '@voiceplane/application';
import { checkedKey } from './media-key';

/**
 * Media as files in one directory (the embedded default, under `VOICEPLANE_DATA_DIR`): the bytes in
 * `<key>`, the content type beside them in `<key>.type`. Each file is written under a temporary
 * name and renamed, so a reader never sees half a file.
 */
export class LocalFileMediaStore implements MediaStore {
  constructor(private readonly dir: string) {}

  async put(key: string, body: MediaBody, contentType: string): Promise<number> {
    const path = join(this.dir, checkedKey(key));
    await mkdir(this.dir, { recursive: true });
    const suffix = `.${process.pid}.${Date.now()}.tmp`;
    let size = 0;
    try {
      await pipeline(
        Readable.from(body),
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.byteLength;
            done(null, chunk);
          },
        }),
        createWriteStream(`${path}${suffix}`),
      );
      await writeFile(`${path}.type${suffix}`, contentType, 'utf8');
    } catch (e) {
      await Promise.all([rm(`${path}${suffix}`, { force: true }), rm(`${path}.type${suffix}`, { force: true })]);
      throw e;
    }
    await rename(`${path}.type${suffix}`, `${path}.type`);
    await rename(`${path}${suffix}`, path);
    return size;
  }

  /** The type file goes last: a file without its type is never served (`open` needs both). */
  async delete(key: string): Promise<void> {
    const path = join(this.dir, checkedKey(key));
    await rm(path, { force: true });
    await rm(`${path}.type`, { force: true });
  }

  async open(key: string): Promise<StoredMedia | null> {
    const path = join(this.dir, checkedKey(key));
    try {
      const [info, contentType] = await Promise.all([stat(path), readFile(`${path}.type`, 'utf8')]);
      return { contentType, size: info.size, body: createReadStream(path) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }
}
