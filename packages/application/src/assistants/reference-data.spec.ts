import {
  InMemoryCatalogRepository,
  InMemoryEventTypeRepository,
  ManualClock,
  SAMPLE_CATALOG,
} from '@voiceplane/adapter-fakes';
import { err } from '@voiceplane/domain';
import { ReferenceData } from './reference-data';

const AT = new Date('2030-05-01T12:00:00.000Z');

const setup = () => {
  const events = new InMemoryEventTypeRepository(new ManualClock(AT));
  return { events, reference: new ReferenceData(new InMemoryCatalogRepository(SAMPLE_CATALOG), events) };
};

describe('ReferenceData', () => {
  it('refuses a language the catalogue does not know instead of answering no voices', async () => {
    const { reference } = setup();

    expect(await reference.voices({ languageId: 2 })).toEqual(err('unknown_language'));
  });

  it('answers the voices speaking a language, multilingual ones included, and those of a mode', async () => {
    const { reference } = setup();

    const german = await reference.voices({ languageId: 5 });
    const multimodal = await reference.voices({ mode: 'multimodal' });

    expect(german.ok && german.value.map((v) => v.name)).toEqual(['Lena', 'alloy']);
    expect(multimodal.ok && multimodal.value.map((v) => v.name)).toEqual(['alloy']);
  });

  it('filters models and providers by kind, all of them without one', async () => {
    const { reference } = setup();

    expect((await reference.models('multimodal')).map((m) => m.id)).toEqual([3]);
    expect((await reference.models()).map((m) => m.id)).toEqual([1, 2, 3]);
    const transcribers = await reference.providers({ kind: 'transcriber' });
    expect(transcribers.ok && transcribers.value.map((p) => p.name)).toEqual(['deepgram']);
    expect(await reference.languages()).toEqual(SAMPLE_CATALOG.languages);
  });

  it('lists the providers that can serve a language, and refuses a language it does not know', async () => {
    const { reference } = setup();
    const german = await reference.providers({ languageId: 5 });
    const unknown = await reference.providers({ languageId: 999 });

    // Lena (German) is voiced by cartesia; elevenlabs has no German voice; transcribers hear every language.
    expect(german.ok && german.value.map((p) => p.name)).toEqual(['cartesia', 'deepgram']);
    expect(unknown).toEqual({ ok: false, error: 'unknown_language' });
  });

  it("lists only the account's own event types", async () => {
    const { reference, events } = setup();
    await events.create(1, { name: 'Intro', durationMinutes: 30 });
    await events.create(2, { name: 'Theirs', durationMinutes: 15 });

    expect((await reference.eventTypes(1)).map((e) => e.name)).toEqual(['Intro']);
  });
});
