import { ASSISTANT_DEFAULTS, AssistantConfig } from '@voiceplane/domain';
import { FolderRepository, AssistantRepository } from '@voiceplane/application';

export type FolderKind = 'folders' | 'labels';

export interface FolderFixture {
  readonly folders: FolderRepository;
  /** The assistants the folders hold, in the same store. */
  readonly assistants: AssistantRepository;
  /** Two accounts folders may belong to. */
  readonly users: readonly [number, number];
}

const config = (over: Partial<AssistantConfig>): AssistantConfig => ({
  ...ASSISTANT_DEFAULTS,
  name: 'Sales',
  voiceId: 1,
  llmModelId: null,
  multimodalModelId: null,
  knowledgebaseMode: null,
  ...over,
});

/**
 * The FolderRepository port's behaviour for folders or labels, run against every
 * implementation. `open` gives a store for each test.
 */
export function folderRepositoryContract(name: string, kind: FolderKind, open: () => Promise<FolderFixture>): void {
  describe(`FolderRepository contract (${kind}): ${name}`, () => {
    let f: FolderFixture;
    let user: number;
    let other: number;
    const created = async (userId: number, groupName: string, color: 'red' | null = null) => {
      const folder = await f.folders.create(userId, { name: groupName, color });
      if (folder === 'name_taken') throw new Error('name taken');
      return folder;
    };
    const filed = async (userId: number, groupId: number) => {
      const assistant = await f.assistants.create(
        userId,
        config(kind === 'folders' ? { folderId: groupId } : { labelIds: [groupId] }),
      );
      if (assistant === 'inbound_number_taken') throw new Error('inbound number taken');
      return assistant;
    };

    beforeEach(async () => {
      f = await open();
      [user, other] = f.users;
    });

    it('creates a folder empty, and refuses a name the account already uses whatever its case', async () => {
      expect(await f.folders.create(user, { name: 'Sales', color: 'red' })).toEqual({
        id: expect.any(Number),
        name: 'Sales',
        color: 'red',
        assistantsCount: 0,
      });
      expect(await f.folders.create(user, { name: 'SALES', color: null })).toBe('name_taken');
      expect(await f.folders.create(other, { name: 'sales', color: null })).toEqual(
        expect.objectContaining({ name: 'sales' }),
      );
    });

    it("lists the account's folders by name ignoring case, then id, a page at a time with the total", async () => {
      const b = await created(user, 'beta');
      const a = await created(user, 'Alpha', 'red');
      const c = await created(user, 'Charlie');
      await created(other, 'Aardvark');

      expect(await f.folders.list(user, { page: 1, perPage: 2 })).toEqual({ items: [a, b], total: 3 });
      expect(await f.folders.list(user, { page: 2, perPage: 2 })).toEqual({ items: [c], total: 3 });
      expect(await f.folders.list(user, { page: 3, perPage: 2 })).toEqual({ items: [], total: 3 });
      expect((await f.folders.list(other, { page: 1, perPage: 10 })).items.map((g) => g.name)).toEqual(['Aardvark']);
    });

    it("changes only the sent fields of the caller's folder, and refuses another folder's name", async () => {
      const sales = await created(user, 'Sales', 'red');
      await created(user, 'Support');
      const theirs = await created(other, 'Theirs');

      expect(await f.folders.update(user, sales.id, { name: 'Leads' })).toEqual({ ...sales, name: 'Leads' });
      expect(await f.folders.update(user, sales.id, { color: null })).toEqual({ ...sales, name: 'Leads', color: null });
      expect(await f.folders.update(user, sales.id, {})).toEqual({ ...sales, name: 'Leads', color: null });
      expect(await f.folders.update(user, sales.id, { name: 'support' })).toBe('name_taken');
      expect(await f.folders.update(user, sales.id, { name: 'LEADS', color: 'red' })).toEqual({
        ...sales,
        name: 'LEADS',
        color: 'red',
      });
      expect(await f.folders.update(user, theirs.id, { name: 'Mine' })).toBeNull();
      expect(await f.folders.update(user, 999_999, { name: 'Mine' })).toBeNull();
      expect((await f.folders.list(other, { page: 1, perPage: 10 })).items).toEqual([theirs]);
    });

    it("tells whether the caller owns a folder, and deletes only the caller's", async () => {
      const mine = await created(user, 'Mine');
      const theirs = await created(other, 'Theirs');

      expect(await f.folders.exists(user, mine.id)).toBe(true);
      expect(await f.folders.exists(user, theirs.id)).toBe(false);
      expect(await f.folders.delete(user, theirs.id)).toBe(false);
      expect(await f.folders.exists(other, theirs.id)).toBe(true);
      expect(await f.folders.delete(user, mine.id)).toBe(true);
      expect(await f.folders.delete(user, mine.id)).toBe(false);
      expect(await f.folders.exists(user, mine.id)).toBe(false);
      expect(await f.folders.create(user, { name: 'Mine', color: null })).toEqual(
        expect.objectContaining({ name: 'Mine' }),
      );
    });

    it("counts the assistants a folder holds; a deleted folder's assistants stay and leave it", async () => {
      const folder = await created(user, 'Sales');
      const empty = await created(user, 'Empty');
      const first = await filed(user, folder.id);
      await filed(user, folder.id);

      expect(
        (await f.folders.list(user, { page: 1, perPage: 10 })).items.map((g) => [g.name, g.assistantsCount]),
      ).toEqual([
        ['Empty', 0],
        ['Sales', 2],
      ]);
      expect(await f.folders.update(user, folder.id, { color: 'red' })).toEqual(
        expect.objectContaining({ assistantsCount: 2 }),
      );
      expect(await f.folders.update(user, empty.id, { color: 'red' })).toEqual(
        expect.objectContaining({ assistantsCount: 0 }),
      );

      expect(await f.folders.delete(user, folder.id)).toBe(true);
      const left = await f.assistants.findOwned(user, first.id);
      expect(kind === 'folders' ? left?.folderId : left?.labelIds).toEqual(kind === 'folders' ? null : []);
    });
  });
}
