import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFileMediaStore } from '@voiceplane/adapter-media-store';
import { mediaStoreContract } from './media-store.contract';

const dir = mkdtempSync(join(tmpdir(), 'vp-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

mediaStoreContract('files', async () => new LocalFileMediaStore(join(dir, 'media')));

it('refuses a key that could name a path outside its directory', async () => {
  const store = new LocalFileMediaStore(join(dir, 'media'));
  await expect(store.put('../escape', [new Uint8Array(1)], 'text/plain')).rejects.toThrow(/invalid media key/);
  await expect(store.open('a/b')).rejects.toThrow(/invalid media key/);
  for (const key of ['..', 'a..b', 'callrec_1.ogg.tmp', 'med_x.type', '.ogg'])
    await expect(store.open(key)).rejects.toThrow(/invalid media key/);
  await expect(store.open('callrec_1.ogg')).resolves.toBeNull();
});
