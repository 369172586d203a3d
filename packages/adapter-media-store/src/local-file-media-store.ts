import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaStore, StoredMedia } from '@voiceplane/application';
import { checkedKey } from './media-key';

/**
 * Media as files in one directory (the embedded default, under `VOICEPLANE_DATA_DIR`): the bytes in
 * `<key>`, the content type beside them in `<key>.type`. Each file is written under a temporary
 * name and renamed, so a reader never sees half a file.
 */
export class LocalFileMediaStore implements MediaStore {
  constructor(private readonly dir: string) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const path = join(this.dir, checkedKey(key));
    await mkdir(this.dir, { recursive: true });
    const suffix = `.${process.pid}.${Date.now()}.tmp`;
    await writeFile(`${path}${suffix}`, bytes);
    await writeFile(`${path}.type${suffix}`, contentType, 'utf8');
    await rename(`${path}.type${suffix}`, `${path}.type`);
    await rename(`${path}${suffix}`, path);
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
