import {
  InMemoryChatappMessageRepository,
  InMemoryInboundMediaRepository,
  InMemoryMediaStore,
  ManualClock,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { MediaRetention } from './media-retention';
import type { MediaStore } from './inbound-media';

const DAY = 86_400_000;
const T0 = new Date('2030-05-01T12:00:00.000Z');

function setup(store: MediaStore = new InMemoryMediaStore()) {
  const clock = new ManualClock(T0);
  const media = new InMemoryInboundMediaRepository(new InMemoryChatappMessageRepository());
  const retention = new MediaRetention(media, store, 30, clock, new RecordingLogger());
  const keep = async (id: string, at: Date) => {
    await media.create({ id, userId: 1, senderId: 1, messageId: 1, source: { kind: 'provider', ref: id }, now: at });
    await media.markStored(id, { contentType: 'text/plain', size: 2, mediaUrl: `https://vp.example/${id}` });
    await store.put(id, [Buffer.from(id)], 'text/plain');
  };
  return { clock, media, store, retention, keep };
}

describe('media retention', () => {
  it('deletes the files of media older than the retention period, and only those', async () => {
    const s = setup();
    await s.keep('med_old', new Date(T0.getTime() - 31 * DAY));
    await s.keep('med_new', new Date(T0.getTime() - 29 * DAY));
    expect(await s.retention.sweep()).toBe(1);
    expect([await s.store.open('med_old'), await s.media.find('med_old')]).toEqual([null, null]);
    expect(await s.store.open('med_new')).not.toBeNull();
    expect(await s.media.deletedIds(10)).toEqual([]);
    s.clock.advance(2 * DAY);
    expect(await s.retention.sweep()).toBe(1);
    expect(await s.store.open('med_new')).toBeNull();
  });

  it('keeps a file the store would not delete listed, and deletes it on the next sweep', async () => {
    const inner = new InMemoryMediaStore();
    let failing = true;
    const flaky: MediaStore = {
      put: (k, b, t) => inner.put(k, b, t),
      open: (k) => inner.open(k),
      delete: async (k) => {
        if (failing) throw new Error('the media store could not delete the file: ServiceUnavailable (503)');
        await inner.delete(k);
      },
    };
    const s = setup(flaky);
    await s.keep('med_old', new Date(T0.getTime() - 40 * DAY));
    expect(await s.retention.sweep()).toBe(0);
    expect(await s.media.deletedIds(10)).toEqual(['med_old']);
    failing = false;
    expect(await s.retention.sweep()).toBe(1);
    expect([await inner.open('med_old'), await s.media.deletedIds(10)]).toEqual([null, []]);
  });
});
