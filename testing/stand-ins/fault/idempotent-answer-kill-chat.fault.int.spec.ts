import { createAssistant } from '../calls/fixtures';
import { crashTestbed, killWithAnswersHeld } from './held-answers';

/**
 * The web chat routes, generate-reply, a human's reply and the inbound and conversation-ended
 * webhook switches with an Idempotency-Key across a real crash: the api process is SIGKILLed after
 * each effect committed and before its answer was sent (FAULT_HOLD_IDEMPOTENT_ANSWERS). Each retry
 * on the restarted api replays the answer stored in the effect's commit, and each effect is there once.
 * The reply comes from the sandbox reply generator (no outside call).
 *
 * Needs PostgreSQL (DATABASE_URL) and a built api (`npx tsc -b`).
 */
const runOrSkip = process.env.DATABASE_URL ? describe : describe.skip;
const HOOK = 'http://127.0.0.1:9/hook';

runOrSkip('Idempotency-Key of web chat and webhook switches across a SIGKILL', () => {
  const bed = crashTestbed('vp-idem-chat-kill-');

  it('each retry replays the first answer; each message, chat and switch is there once', async () => {
    const user = await bed.api.createUser({ balance: 10 });
    const assistant = await createAssistant(bed.api, user, { name: 'Chatty', initial_message: 'Hello!' });
    const switched: number[] = [];
    for (let i = 0; i < 4; i++) switched.push(await createAssistant(bed.api, user, { name: `Hooked ${i}` }));
    for (const [path, id] of [
      ['enable-inbound-webhook', switched[1]],
      ['enable-conversation-ended-webhook', switched[3]],
    ] as const)
      await bed.api.http
        .post(`/api/user/assistants/${path}`)
        .set(user.auth)
        .send({ assistant_id: id, webhook_url: HOOK });
    const chat = async () =>
      (await bed.api.http.post('/api/conversations').set(user.auth).send({ assistant_id: assistant, type: 'test' }))
        .body.conversation_id as string;
    const [asked, answered] = [await chat(), await chat()];
    const messages = (source: string, body: string) => [
      `SELECT count(*)::int AS n FROM conversation_messages WHERE source = $1 AND body = $2`,
      [source, body],
    ];
    const hooked = (column: string, id: number, url: string | null) => [
      `SELECT count(*)::int AS n FROM assistants WHERE id = $1 AND ${column} IS NOT DISTINCT FROM $2`,
      [id, url],
    ];

    const routes = [
      {
        key: 'start-1',
        path: '/api/conversations',
        body: { assistant_id: assistant, type: 'test', variables: { crash: 'start' } },
        made: [
          `SELECT count(*)::int AS n FROM conversations WHERE user_id = $1 AND variables->>'crash' = 'start'`,
          [user.id],
        ],
      },
      {
        key: 'message-1',
        path: `/api/conversations/${asked}/messages`,
        body: { message: 'Crash hello' },
        made: messages('customer', 'Crash hello'),
      },
      {
        key: 'generate-1',
        path: '/api/user/ai/generate-reply',
        body: { assistant_id: assistant, customer_identifier: 'crash-1', message: 'Crash generate' },
        made: messages('customer', 'Crash generate'),
      },
      {
        key: 'generate-alias-1',
        path: '/api/ai/generate-reply',
        body: { assistant_id: assistant, customer_identifier: 'crash-2', message: 'Crash alias' },
        made: messages('customer', 'Crash alias'),
      },
      {
        key: 'human-1',
        path: `/api/user/conversations/${answered}/messages`,
        body: { message: 'Human crash' },
        made: messages('api', 'Human crash'),
      },
      {
        key: 'inbound-on-1',
        path: '/api/user/assistants/enable-inbound-webhook',
        body: { assistant_id: switched[0], webhook_url: HOOK },
        made: hooked('inbound_webhook_url', switched[0], HOOK),
      },
      {
        key: 'inbound-off-1',
        path: '/api/user/assistants/disable-inbound-webhook',
        body: { assistant_id: switched[1] },
        made: hooked('inbound_webhook_url', switched[1], null),
      },
      {
        key: 'ended-on-1',
        path: '/api/user/assistants/enable-conversation-ended-webhook',
        body: { assistant_id: switched[2], webhook_url: HOOK },
        made: hooked('conversation_ended_webhook_url', switched[2], HOOK),
      },
      {
        key: 'ended-off-1',
        path: '/api/user/assistants/disable-conversation-ended-webhook',
        body: { assistant_id: switched[3] },
        made: hooked('conversation_ended_webhook_url', switched[3], null),
      },
    ];
    const send = (base: string, r: (typeof routes)[number], path: string = r.path) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': r.key },
        body: JSON.stringify(r.body),
      });

    await killWithAnswersHeld(bed, routes, send);

    const restarted = await bed.startApi();
    const replayed = new Map<string, Record<string, unknown>>();
    for (const r of routes) {
      const retry = await send(restarted.base, r, `${r.path}/`);
      const body = (await retry.json()) as Record<string, unknown>;
      expect([r.path, retry.status, retry.headers.get('idempotent-replayed')]).toEqual([r.path, 200, 'true']);
      const [{ n }] = await bed.db.dataSource.query(r.made[0] as string, [...(r.made[1] as unknown[])]);
      expect([r.path, n]).toEqual([r.path, 1]);
      replayed.set(r.key, body);
    }
    // The replies were stored once each, and the answers name what was made.
    expect(replayed.get('start-1')).toMatchObject({
      status: true,
      history: [{ role: 'assistant', content: 'Hello!' }],
    });
    const startedChat = replayed.get('start-1')?.conversation_id as string;
    expect(
      await bed.db.dataSource.query(`SELECT count(*)::int AS n FROM conversations WHERE uuid = $1`, [startedChat]),
    ).toEqual([{ n: 1 }]);
    expect(replayed.get('message-1')).toMatchObject({ status: true, message: expect.any(String) });
    for (const key of ['generate-1', 'generate-alias-1']) {
      const answer = replayed.get(key) as { conversation_id: string; reply: string };
      expect(answer).toMatchObject({ success: true, ai_disabled: false, reply: expect.any(String) });
      const [{ n }] = await bed.db.dataSource.query(
        `SELECT count(*)::int AS n FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
         WHERE c.uuid = $1 AND m.source = 'ai'`,
        [answer.conversation_id],
      );
      expect([key, n]).toEqual([key, 1]);
    }
    expect(replayed.get('human-1')).toMatchObject({ status: true, data: { body: 'Human crash' } });
  });
});
