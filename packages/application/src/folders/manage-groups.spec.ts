import { err, GroupColor, ok } from '@voiceplane/domain';
import { AssistantGroup, AssistantGroupRepository } from './ports';
import { ManageGroups } from './manage-groups';

/**
 * Folders and labels have no in-memory fake: this stand-in keeps the groups of each account with
 * names unique ignoring case, as the tables' index does.
 */
function groups() {
  type Row = { -readonly [K in keyof AssistantGroup]: AssistantGroup[K] } & { userId: number };
  const rows: Row[] = [];
  const taken = (userId: number, name: string, except?: number) =>
    rows.some((r) => r.userId === userId && r.id !== except && r.name.toLowerCase() === name.toLowerCase());
  const owned = (userId: number, id: number) => rows.find((r) => r.userId === userId && r.id === id);
  const plain = ({ userId: _, ...group }: Row): AssistantGroup => ({ ...group });
  const repository: AssistantGroupRepository = {
    async create(userId, group) {
      if (taken(userId, group.name)) return 'name_taken';
      const row = { id: rows.length + 1, userId, name: group.name, color: group.color, assistantsCount: 0 };
      rows.push(row);
      return plain(row);
    },
    async list(userId, page) {
      const mine = rows.filter((r) => r.userId === userId).map(plain);
      return { items: mine.slice((page.page - 1) * page.perPage, page.page * page.perPage), total: mine.length };
    },
    async update(userId, id, changes) {
      const row = owned(userId, id);
      if (!row) return null;
      if (changes.name !== undefined && taken(userId, changes.name, id)) return 'name_taken';
      if (changes.name !== undefined) row.name = changes.name;
      if (changes.color !== undefined) row.color = changes.color;
      return plain(row);
    },
    async exists(userId, id) {
      return owned(userId, id) !== undefined;
    },
    async delete(userId, id) {
      const row = owned(userId, id);
      if (!row) return false;
      rows.splice(rows.indexOf(row), 1);
      return true;
    },
  };
  return { repository, rows };
}

const red: GroupColor = 'red';

describe('ManageGroups', () => {
  it('refuses a name the account already uses, whatever its case', async () => {
    const manage = new ManageGroups(groups().repository);
    await manage.create(1, { name: 'Sales', color: null });

    expect(await manage.create(1, { name: 'SALES', color: null })).toEqual(err('name_taken'));
    expect((await manage.create(2, { name: 'Sales', color: red })).ok).toBe(true);
  });

  it('answers a missing group as not found even when the changes were malformed', async () => {
    const manage = new ManageGroups(groups().repository);
    const theirs = await manage.create(2, { name: 'Theirs', color: null });
    if (!theirs.ok) throw new Error('not created');

    expect(await manage.update(1, theirs.value.id, err({ name: ['The name field must be a string.'] }))).toEqual(err('not_found'));
  });

  it('answers the malformed changes of an existing group with their field errors, changing nothing', async () => {
    const store = groups();
    const manage = new ManageGroups(store.repository);
    const mine = await manage.create(1, { name: 'Sales', color: null });
    if (!mine.ok) throw new Error('not created');

    const errors = { name: ['The name field must be a string.'] };
    expect(await manage.update(1, mine.value.id, err(errors))).toEqual(err({ code: 'invalid_fields', errors }));
    expect(store.rows[0].name).toBe('Sales');
  });

  it('changes only the sent fields of the caller\'s group and refuses a taken name', async () => {
    const manage = new ManageGroups(groups().repository);
    const sales = await manage.create(1, { name: 'Sales', color: red });
    await manage.create(1, { name: 'Support', color: null });
    if (!sales.ok) throw new Error('not created');

    expect(await manage.update(1, sales.value.id, ok({ name: 'Leads' }))).toEqual(ok(expect.objectContaining({ name: 'Leads', color: red })));
    expect(await manage.update(1, sales.value.id, ok({ name: 'support' }))).toEqual(err('name_taken'));
  });

  it('deletes only the caller\'s group', async () => {
    const manage = new ManageGroups(groups().repository);
    const theirs = await manage.create(2, { name: 'Theirs', color: null });
    if (!theirs.ok) throw new Error('not created');

    expect(await manage.delete(1, theirs.value.id)).toEqual(err('not_found'));
    expect(await manage.delete(2, theirs.value.id)).toEqual(ok(true));
  });
});
