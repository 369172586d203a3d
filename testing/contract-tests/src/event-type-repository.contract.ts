import { EventTypeRepository } from '@voiceplane/application';

export interface EventTypeFixture {
  readonly eventTypes: EventTypeRepository;
  /** Two accounts event types may belong to. */
  readonly users: readonly [number, number];
}

/** The EventTypeRepository port's behaviour, run against every implementation. `open` gives a store for each test. */
export function eventTypeRepositoryContract(name: string, open: () => Promise<EventTypeFixture>): void {
  describe(`EventTypeRepository contract: ${name}`, () => {
    it("creates event types and lists the account's own, newest first", async () => {
      const {
        eventTypes,
        users: [user, other],
      } = await open();

      const intro = await eventTypes.create(user, { name: 'Intro', durationMinutes: 30 });
      const demo = await eventTypes.create(user, { name: 'Demo', durationMinutes: 45 });
      const theirs = await eventTypes.create(other, { name: 'Intro', durationMinutes: 15 });

      expect(intro).toEqual({
        id: expect.any(Number),
        userId: user,
        name: 'Intro',
        durationMinutes: 30,
        createdAt: expect.any(Date),
      });
      expect(await eventTypes.listOwned(user)).toEqual([demo, intro]);
      expect(await eventTypes.listOwned(other)).toEqual([theirs]);
    });

    it('lists none for an account without event types', async () => {
      const {
        eventTypes,
        users: [user, other],
      } = await open();
      await eventTypes.create(other, { name: 'Intro', durationMinutes: 30 });

      expect(await eventTypes.listOwned(user)).toEqual([]);
    });
  });
}
