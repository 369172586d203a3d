import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Folders and labels: the same rules, two sets of routes. */

const INVALID = 'The given data was invalid.';

describe.each([
  { noun: 'Folder', one: '/api/user/folder', many: '/api/user/folders', alias: '/api/user/folders' },
  { noun: 'Label', one: '/api/user/label', many: '/api/user/labels', alias: '/api/user/labels' },
])('$noun routes', ({ noun, one, many, alias }) => {
  let t: TestApi;
  let a: TestUser;
  let b: TestUser;
  const NOT_FOUND = { message: `${noun} not found` };
  const expectInvalid = (res: { status: number; body: unknown }, errors: Record<string, string[]>) => {
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { message: INVALID, errors } });
  };
  const make = async (user: TestUser, body: Record<string, unknown>) =>
    (await t.http.post(one).set(user.auth).send(body)).body.data as { id: number };
  const attach = (id: number) => (noun === 'Folder' ? { folder_id: id } : { label_ids: [id] });
  const assistantField = noun === 'Folder' ? 'folder_id' : 'label_ids';

  beforeAll(async () => {
    t = await createTestApi();
    a = await t.createUser();
    b = await t.createUser();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates with and without a color', async () => {
    const res = await t.http.post(one).set(a.auth).send({ name: '  Acme Inc.  ', color: 'pink' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: {
        message: `${noun} created successfully`,
        data: { id: expect.any(Number), name: 'Acme Inc.', color: 'pink', assistants_count: 0 },
      },
    });
    const plain = await t.http.post(one).set(a.auth).send({ name: 'Plain', color: '' });
    expect(plain.body.data).toEqual({ id: expect.any(Number), name: 'Plain', color: null, assistants_count: 0 });
  });

  it.each<[Record<string, unknown>, Record<string, string[]>]>([
    [{}, { name: ['The name field is required.'] }],
    [{ name: '   ' }, { name: ['The name field is required.'] }],
    [{ name: 'x'.repeat(256) }, { name: ['The name may not be greater than 255 characters.'] }],
    [{ name: 'Colors', color: 'black' }, { color: ['The selected color is invalid.'] }],
    [{ name: 'ACME INC.' }, { name: ['The name has already been taken.'] }],
  ])('create 422 for %j', async (body, errors) => {
    expectInvalid(await t.http.post(one).set(a.auth).send(body), errors);
  });

  it('creates through the plural path as the MCP server sends it', async () => {
    const res = await t.http
      .post(many)
      .set(a.auth)
      .send({ name: `Plural ${noun}`, color: 'green' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: {
        message: `${noun} created successfully`,
        data: { id: expect.any(Number), name: `Plural ${noun}`, color: 'green', assistants_count: 0 },
      },
    });
    expectInvalid(
      await t.http
        .post(many)
        .set(a.auth)
        .send({ name: `plural ${noun}` }),
      { name: ['The name has already been taken.'] },
    );
  });

  it('lets another account use the same name', async () => {
    expect((await t.http.post(one).set(b.auth).send({ name: 'Acme Inc.' })).status).toBe(201);
  });

  it('lists by name, case-insensitively, in a page envelope with counts', async () => {
    const c = await t.createUser();
    const zulu = await make(c, { name: 'zulu', color: 'blue' });
    const alpha = await make(c, { name: 'Alpha' });
    const mike = await make(c, { name: 'mike' });
    await t.http
      .post('/api/user/assistant')
      .set(c.auth)
      .send({ name: 'One', ...attach(mike.id) });
    await t.http
      .post('/api/user/assistant')
      .set(c.auth)
      .send({ name: 'Two', ...attach(mike.id) });
    const res = await t.http.get(many).set(c.auth);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        data: [
          { id: alpha.id, name: 'Alpha', color: null, assistants_count: 0 },
          { id: mike.id, name: 'mike', color: null, assistants_count: 2 },
          { id: zulu.id, name: 'zulu', color: 'blue', assistants_count: 0 },
        ],
        current_page: 1,
        per_page: 15,
        total: 3,
        last_page: 1,
      },
    });
    expect((await t.http.get(`${many}?per_page=2&page=2`).set(c.auth)).body).toEqual({
      data: [{ id: zulu.id, name: 'zulu', color: 'blue', assistants_count: 0 }],
      current_page: 2,
      per_page: 2,
      total: 3,
      last_page: 2,
    });
    expect((await t.http.get(`${many}?page=5`).set(c.auth)).body).toEqual({
      data: [],
      current_page: 5,
      per_page: 15,
      total: 3,
      last_page: 1,
    });
    expectInvalid(await t.http.get(`${many}?per_page=0`).set(c.auth), {
      per_page: ['The per page must be between 1 and 100.'],
    });
  });

  it('updates only the sent fields; null clears the color; its own name is no conflict', async () => {
    const group = await make(a, { name: 'Renamable', color: 'teal' });
    const paths = alias ? [`${one}/${group.id}`, `${alias}/${group.id}`] : [`${one}/${group.id}`];
    for (const path of paths) {
      const res = await t.http.put(path).set(a.auth).send({ name: 'renamable' });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: {
          message: `${noun} updated successfully`,
          data: { id: group.id, name: 'renamable', color: 'teal', assistants_count: 0 },
        },
      });
    }
    const cleared = await t.http.put(`${one}/${group.id}`).set(a.auth).send({ color: null });
    expect(cleared.body.data).toEqual({ id: group.id, name: 'renamable', color: null, assistants_count: 0 });
    const empty = await t.http.put(`${one}/${group.id}`).set(a.auth).send({});
    expect(empty.body.data).toEqual({ id: group.id, name: 'renamable', color: null, assistants_count: 0 });
  });

  it.each<[Record<string, unknown>, Record<string, string[]>]>([
    [{ name: 'acme inc.' }, { name: ['The name has already been taken.'] }],
    [{ name: '' }, { name: ['The name field must have a value.'] }],
    [{ name: null }, { name: ['The name field must have a value.'] }],
    [{ color: 'neon' }, { color: ['The selected color is invalid.'] }],
    [
      { name: 'x'.repeat(256), color: 'neon' },
      { name: ['The name may not be greater than 255 characters.'], color: ['The selected color is invalid.'] },
    ],
  ])('update 422 for %j', async (body, errors) => {
    const group = await make(a, { name: `Victim ${Math.random()}` });
    expectInvalid(await t.http.put(`${one}/${group.id}`).set(a.auth).send(body), errors);
  });

  it('answers 404 for missing, foreign and malformed ids on update and delete, even with a bad body', async () => {
    const foreign = await make(b, { name: `Theirs ${noun}` });
    for (const id of ['999999', String(foreign.id), 'abc']) {
      for (const req of [
        t.http.put(`${one}/${id}`).set(a.auth).send({ name: 'Mine now' }),
        t.http.put(`${one}/${id}`).set(a.auth).send({ color: 'neon' }),
        t.http.delete(`${one}/${id}`).set(a.auth),
      ]) {
        const res = await req;
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: NOT_FOUND });
      }
    }
    const theirs = await t.http.get(many).set(b.auth);
    expect(theirs.body.data).toContainEqual({
      id: foreign.id,
      name: `Theirs ${noun}`,
      color: null,
      assistants_count: 0,
    });
  });

  it('deletes; its assistants stay and lose the reference', async () => {
    const group = await make(a, { name: 'Doomed' });
    const assistant = (
      await t.http
        .post('/api/user/assistant')
        .set(a.auth)
        .send({ name: 'Survivor', ...attach(group.id) })
    ).body.data.id as number;
    const paths = alias ? [`${alias}/${group.id}`, `${one}/${group.id}`] : [`${one}/${group.id}`, `${one}/${group.id}`];
    const first = await t.http.delete(paths[0]).set(a.auth);
    expect({ status: first.status, body: first.body }).toEqual({
      status: 200,
      body: { message: `${noun} deleted successfully` },
    });
    const second = await t.http.delete(paths[1]).set(a.auth);
    expect({ status: second.status, body: second.body }).toEqual({ status: 404, body: NOT_FOUND });
    const stored = (await t.http.get(`/api/user/assistant/${assistant}`).set(a.auth)).body.data;
    expect(stored[assistantField]).toEqual(noun === 'Folder' ? null : []);
  });
});
