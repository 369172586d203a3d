import { randomBytes } from 'node:crypto';
import type { MediaStore } from '@voiceplane/application';

const read = async (body: AsyncIterable<Uint8Array>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};

let keys = 0;
const key = () => `med_${process.pid}x${Date.now().toString(36)}x${++keys}`;

/** The media store's behaviour, run against every implementation. `open` gives a store for each test. */
export function mediaStoreContract(name: string, open: () => Promise<MediaStore>): void {
  describe(`media store contract: ${name}`, () => {
    let store: MediaStore;
    beforeEach(async () => {
      store = await open();
    });

    it('gives back the exact bytes with their content type and size', async () => {
      const k = key();
      const bytes = randomBytes(70_000);
      expect(await store.put(k, [bytes], 'image/jpeg')).toBe(70_000);
      const opened = await store.open(k);
      expect(opened).toEqual(expect.objectContaining({ contentType: 'image/jpeg', size: 70_000 }));
      expect((await read(opened!.body)).equals(bytes)).toBe(true);
    });

    it('keeps empty files, replaces a key written twice, and knows nothing of unknown keys', async () => {
      const k = key();
      await store.put(k, [new Uint8Array(0)], 'application/octet-stream');
      expect((await store.open(k))?.size).toBe(0);
      await store.put(k, [Buffer.from('second')], 'text/plain');
      const opened = (await store.open(k))!;
      expect([opened.contentType, (await read(opened.body)).toString()]).toEqual(['text/plain', 'second']);
      expect(await store.open(key())).toBeNull();
    });

    it('deletes a file, and deleting one that is not there succeeds', async () => {
      const k = key();
      await store.put(k, [Buffer.from('bye')], 'text/plain');
      await store.delete(k);
      expect(await store.open(k)).toBeNull();
      await store.delete(k);
      await store.delete(key());
    });

    it('writes a stream of unknown length as it arrives, and keeps nothing of a stream that fails part-way', async () => {
      const k = key();
      const parts = [randomBytes(40_000), randomBytes(40_000)];
      expect(
        await store.put(
          k,
          (async function* () {
            yield* parts;
          })(),
          'audio/ogg',
        ),
      ).toBe(80_000);
      expect((await read((await store.open(k))!.body)).equals(Buffer.concat(parts))).toBe(true);
      const broken = key();
      const failing = (async function* () {
        yield parts[0];
        throw new Error('the file is larger than 16 MB');
      })();
      await expect(store.put(broken, failing, 'audio/ogg')).rejects.toThrow('the file is larger than 16 MB');
      expect(await store.open(broken)).toBeNull();
    });
  });
}
