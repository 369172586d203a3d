import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Listing data tables through the composed app: the page envelope, newest first, the caller's tables only. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TABLES = '/api/user/automate/tables';
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
});
afterAll(async () => t.close());

async function table(user: TestUser, name: string): Promise<number> {
  const res = await t.http
    .post(TABLES)
    .set(user.auth)
    .send({
      name,
      columns: [
        { name: 'order_number', type: 'string' },
        { name: 'status', type: 'string' },
      ],
    });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('GET /api/user/automate/tables', () => {
  it("pages the caller's tables newest first, with their columns and row counts", async () => {
    const orders = await table(owner, 'Orders');
    expect(
      (
        await t.http
          .post(`${TABLES}/${orders}/rows`)
          .set(owner.auth)
          .send({ rows: [{ values: { order_number: 'A-1001', status: 'shipped' } }] })
      ).status,
    ).toBe(201);
    const returns = await table(owner, 'Returns');
    await table(stranger, 'Not yours');

    const res = await t.http.get(TABLES).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: returns,
          name: 'Returns',
          columns: [
            { name: 'order_number', type: 'string' },
            { name: 'status', type: 'string' },
          ],
          rows_count: 0,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
        {
          id: orders,
          name: 'Orders',
          columns: [
            { name: 'order_number', type: 'string' },
            { name: 'status', type: 'string' },
          ],
          rows_count: 1,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      ],
      current_page: 1,
      per_page: 15,
      total: 2,
      last_page: 1,
    });

    const second = await t.http.get(`${TABLES}?per_page=1&page=2`).set(owner.auth);
    expect(second.body).toMatchObject({ data: [{ id: orders }], current_page: 2, per_page: 1, total: 2, last_page: 2 });
  });

  it('answers an empty page to an account without tables', async () => {
    const fresh = await t.createUser();
    expect((await t.http.get(TABLES).set(fresh.auth)).body).toEqual({
      data: [],
      current_page: 1,
      per_page: 15,
      total: 0,
      last_page: 1,
    });
  });
});
