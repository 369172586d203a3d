import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** 5 chat-app sends per second per user, template and freeform together, across instances on one database. */

let a: TestApi;
let b: TestApi;

beforeAll(async () => {
  a = await createTestApi({ startBackground: false });
  b = await createTestApi({ startBackground: false, db: a.db });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

/**
 * Six sends of a new user, alternating instances and routes, one after the other. A new user per
 * burst: a retry after a burst split over two windows would otherwise start in a window the split
 * burst already used.
 */
async function burst() {
  const user: TestUser = await a.createUser({ balance: 5 });
  const answers = [];
  for (let i = 0; i < 6; i += 1) {
    const api = i % 2 === 0 ? a : b;
    answers.push(
      await api.http
        .post(`/api/user/chatapp/${i % 3 === 0 ? 'send-freeform' : 'send'}`)
        .set(user.auth)
        .send({}),
    );
  }
  return answers;
}

it('the sixth send within one second is 429 in the chat-app family, whichever instance it reaches', async () => {
  // A burst that straddles a second boundary is split over two windows; the next one will not be.
  let answers = await burst();
  for (let tries = 0; new Set(answers.map((r) => r.headers['x-ratelimit-reset'])).size > 1 && tries < 5; tries += 1)
    answers = await burst();
  expect(new Set(answers.map((r) => r.headers['x-ratelimit-reset'])).size).toBe(1);
  expect(answers.slice(0, 5).map((r) => r.status)).toEqual([422, 422, 422, 422, 422]);
  const refused = answers[5];
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ success: false, error: 'Too many requests.', retry_after: 1 });
  expect(refused.headers['retry-after']).toBe('1');
  expect(answers[4].headers['x-ratelimit-limit']).toBe('5');
});
