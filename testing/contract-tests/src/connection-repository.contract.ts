import { ConnectionFields, ConnectionRepository } from '@voiceplane/application';

export interface ConnectionRepositoryFixture {
  readonly connections: ConnectionRepository;
  /** Two accounts connections may belong to. */
  readonly users: readonly [number, number];
}

const FIELDS: ConnectionFields = {
  name: 'Acme CRM',
  kind: 'http_api',
  baseUrl: 'https://crm.example.com/api',
  notesPath: '/notes',
  authType: 'header',
  authHeaderName: 'X-Api-Key',
  sealedAuthValue: 'v1:sealed-secret',
};
const checkedAt = new Date('2030-05-01T12:00:00.000Z');

/**
 * The ConnectionRepository port's behaviour, run against every implementation: connections are
 * their account's alone (another account's id is not found, changes nothing), a new one is
 * `connected`, a check records its status and error, and a reset update makes it `connected`
 * again. `open` gives an empty store for each test.
 */
export function connectionRepositoryContract(name: string, open: () => Promise<ConnectionRepositoryFixture>): void {
  describe(`ConnectionRepository contract: ${name}`, () => {
    let f: ConnectionRepositoryFixture;

    beforeEach(async () => {
      f = await open();
    });

    it('creates a connection as connected and never checked, shown to its owner only', async () => {
      const created = await f.connections.create(f.users[0], FIELDS);
      expect(created).toEqual({
        ...FIELDS,
        id: expect.any(Number),
        userId: f.users[0],
        status: 'connected',
        lastCheckedAt: null,
        lastError: null,
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(await f.connections.find(f.users[0], created.id)).toEqual(created);
      expect(await f.connections.find(f.users[1], created.id)).toBeNull();
    });

    it("lists an account's connections newest first", async () => {
      const first = await f.connections.create(f.users[0], FIELDS);
      const second = await f.connections.create(f.users[0], {
        ...FIELDS,
        name: 'Billing API',
        authType: 'none',
        authHeaderName: null,
        sealedAuthValue: null,
      });
      await f.connections.create(f.users[1], FIELDS);
      expect(await f.connections.list(f.users[0])).toEqual([second, first]);
    });

    it('records a check, and a reset update makes the connection connected again without its error', async () => {
      const created = await f.connections.create(f.users[0], FIELDS);
      await f.connections.recordCheck(created.id, 'broken', 'the CRM answered 401', checkedAt);
      expect(await f.connections.find(f.users[0], created.id)).toEqual(
        expect.objectContaining({ status: 'broken', lastError: 'the CRM answered 401', lastCheckedAt: checkedAt }),
      );

      const renamed = await f.connections.update(f.users[0], created.id, { name: 'Acme' }, false);
      expect(renamed).toEqual(
        expect.objectContaining({ ...FIELDS, name: 'Acme', status: 'broken', lastError: 'the CRM answered 401' }),
      );

      const reset = await f.connections.update(
        f.users[0],
        created.id,
        { baseUrl: 'https://crm2.example.com', sealedAuthValue: 'v1:other' },
        true,
      );
      expect(reset).toEqual(
        expect.objectContaining({
          name: 'Acme',
          baseUrl: 'https://crm2.example.com',
          sealedAuthValue: 'v1:other',
          status: 'connected',
          lastError: null,
          lastCheckedAt: checkedAt,
        }),
      );
      expect(await f.connections.find(f.users[0], created.id)).toEqual(reset);
    });

    it("leaves another account's connection alone: update and delete do not find it", async () => {
      const created = await f.connections.create(f.users[0], FIELDS);
      expect(await f.connections.update(f.users[1], created.id, { name: 'Taken' }, true)).toBeNull();
      expect(await f.connections.delete(f.users[1], created.id)).toBe(false);
      expect(await f.connections.find(f.users[0], created.id)).toEqual(created);

      expect(await f.connections.delete(f.users[0], created.id)).toBe(true);
      expect(await f.connections.delete(f.users[0], created.id)).toBe(false);
      expect(await f.connections.find(f.users[0], created.id)).toBeNull();
      expect(await f.connections.update(f.users[0], created.id, { name: 'Gone' }, false)).toBeNull();
    });
  });
}
