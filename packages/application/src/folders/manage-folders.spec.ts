import { InMemoryFolderRepository, InMemoryUnitOfWork } from '@voiceplane/adapter-fakes';
import { err, FolderColor, ok } from '@voiceplane/domain';
import { ManageFolders } from './manage-folders';

const red: FolderColor = 'red';

describe('ManageFolders', () => {
  it('refuses a name the account already uses, whatever its case', async () => {
    const manage = new ManageFolders(new InMemoryFolderRepository('folders'), new InMemoryUnitOfWork());
    await manage.create(1, { name: 'Sales', color: null });

    expect(await manage.create(1, { name: 'SALES', color: null })).toEqual(err('name_taken'));
    expect((await manage.create(2, { name: 'Sales', color: red })).ok).toBe(true);
  });

  it('answers a missing folder as not found even when the changes were malformed', async () => {
    const manage = new ManageFolders(new InMemoryFolderRepository('folders'), new InMemoryUnitOfWork());
    const theirs = await manage.create(2, { name: 'Theirs', color: null });
    if (!theirs.ok) throw new Error('not created');

    expect(await manage.update(1, theirs.value.id, err({ name: ['The name field must be a string.'] }))).toEqual(
      err('not_found'),
    );
  });

  it('answers the malformed changes of an existing folder with their field errors, changing nothing', async () => {
    const store = new InMemoryFolderRepository('folders');
    const manage = new ManageFolders(store, new InMemoryUnitOfWork());
    const mine = await manage.create(1, { name: 'Sales', color: null });
    if (!mine.ok) throw new Error('not created');

    const errors = { name: ['The name field must be a string.'] };
    expect(await manage.update(1, mine.value.id, err(errors))).toEqual(err({ code: 'invalid_fields', errors }));
    expect(await store.list(1, { page: 1, perPage: 10 })).toEqual({ items: [mine.value], total: 1 });
  });

  it("changes only the sent fields of the caller's folder and refuses a taken name", async () => {
    const manage = new ManageFolders(new InMemoryFolderRepository('folders'), new InMemoryUnitOfWork());
    const sales = await manage.create(1, { name: 'Sales', color: red });
    await manage.create(1, { name: 'Support', color: null });
    if (!sales.ok) throw new Error('not created');

    expect(await manage.update(1, sales.value.id, ok({ name: 'Leads' }))).toEqual(
      ok(expect.objectContaining({ name: 'Leads', color: red })),
    );
    expect(await manage.update(1, sales.value.id, ok({ name: 'support' }))).toEqual(err('name_taken'));
  });

  it("deletes only the caller's folder", async () => {
    const manage = new ManageFolders(new InMemoryFolderRepository('folders'), new InMemoryUnitOfWork());
    const theirs = await manage.create(2, { name: 'Theirs', color: null });
    if (!theirs.ok) throw new Error('not created');

    expect(await manage.delete(1, theirs.value.id)).toEqual(err('not_found'));
    expect(await manage.delete(2, theirs.value.id)).toEqual(ok(true));
  });
});
