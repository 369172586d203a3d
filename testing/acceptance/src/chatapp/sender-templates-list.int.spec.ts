import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Listing a sender's templates through the composed app: approved ones unless a status is asked for, owner only. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
  stranger = await t.createUser();
});
afterAll(async () => t.close());

async function sender(user: TestUser): Promise<number> {
  const phone = `+49152${String(Date.now() % 100_000_000).padStart(8, '0')}`;
  const res = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({ phone_number: phone, display_name: 'Acme Support' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function template(user: TestUser, senderId: number, name: string, body: string): Promise<number> {
  const res = await t.http
    .post(`/api/user/chatapp/senders/${senderId}/templates`)
    .set(user.auth)
    .send({ name, language: 'en', category: 'utility', body_text: body });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('GET /api/user/chatapp/senders/{sender_id}/templates', () => {
  it("lists the sender's approved templates, and the others when their status is asked for", async () => {
    const s = await sender(owner);
    const shipped = await template(owner, s, 'order_update', 'Hi {{1}}, your order {{2}} has shipped.');
    const held = await template(owner, s, 'welcome', 'Welcome aboard.');
    await t.http
      .put(`/api/sandbox/chatapp/templates/${held}/status`)
      .set(owner.auth)
      .send({ status: 'pending' })
      .expect(200);

    const res = await t.http.get(`/api/user/chatapp/senders/${s}/templates`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: shipped,
          sender_id: s,
          name: 'order_update',
          language: 'en',
          category: 'utility',
          status: 'approved',
          body_text: 'Hi {{1}}, your order {{2}} has shipped.',
          variables: ['1', '2'],
          has_variables: true,
          rejection_reason: null,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        },
      ],
    });
    const pending = await t.http.get(`/api/user/chatapp/senders/${s}/templates?status=pending`).set(owner.auth);
    expect(pending.body.data.map((x: { id: number; has_variables: boolean }) => [x.id, x.has_variables])).toEqual([
      [held, false],
    ]);
    const all = await t.http.get(`/api/user/chatapp/senders/${s}/templates?status=all`).set(owner.auth);
    expect(all.body.data.map((x: { id: number }) => x.id).sort((a: number, b: number) => a - b)).toEqual(
      [shipped, held].sort((a, b) => a - b),
    );
  });

  it("answers SENDER_NOT_FOUND for another account's sender", async () => {
    const s = await sender(owner);
    const res = await t.http.get(`/api/user/chatapp/senders/${s}/templates`).set(stranger.auth);
    expect([res.status, res.body]).toEqual([
      404,
      { success: false, error: 'Sender not found or does not belong to you', error_code: 'SENDER_NOT_FOUND' },
    ]);
  });
});
