/**
 * POST /api/user/chatapp/send-freeform with the sandbox chat app on real PostgreSQL, against a bare express + pg
 * handler doing the same transaction (token lookup, sender and window check, balance row lock and debit,
 * conversation update, message + chat-app message + ledger rows) on the same database, in the same run.
 * Sends are spread round-robin over many users, each with an open window, so no user nears the 5 sends/s quota.
 * A third baseline is like for like with the product: prepared statements, and the send reserved and
 * settled in two short transactions (the product never holds a transaction over the provider, sandbox
 * or not), lib/bare-reserve-send.ts with the sandbox in place of the HTTP call.
 * The whole run is in one process (load generator, product, baselines measured in interleaved slices);
 * `node --cpu-prof tools/dist/bench/chatapp-send.js` and `cpuprofile-summary.js <file> 40 packages/`
 * read the product's share of a profile.
 *   npx tsc -b && node tools/dist/bench/chatapp-send.js     (DATABASE_URL=… for real PostgreSQL)
 */
import { createHash, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import express from 'express';
import { Pool, PoolClient } from 'pg';
import { benchDatabase, listen, Measurement, report, reportAgainst, runBench, settings } from './lib/harness';
import { bareAuthenticate } from './lib/bare-auth';
import { startComposedApi } from './lib/composed-api';
import { bareReserveSendApp } from './lib/bare-reserve-send';

const USERS = 500;
const CUSTOMER = '+14155551234';
const MESSAGE = 'Your parcel is on its way and will arrive tomorrow between 9 and 12.';

interface Account { readonly token: string; readonly senderId: number }

/** Users with an API key, a sandbox sender and a conversation whose window a customer opened just now. */
async function seed(pool: Pool): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let i = 0; i < USERS; i++) {
    const token = `vp_${(randomUUID() + randomUUID()).replace(/-/g, '').slice(0, 40)}`;
    const user = await pool.query<{ id: string }>(
      `INSERT INTO users (name, email, plan, balance) VALUES ('Bench', $1, (SELECT plan FROM users ORDER BY id LIMIT 1) || '{"api_rate_limit_per_minute":100000}', 100000) RETURNING id`,
      [`bench-${i}-${Date.now()}@example.test`]);
    const userId = user.rows[0].id;
    await pool.query(`INSERT INTO api_keys (user_id, name, token_hash) VALUES ($1, 'bench', $2)`, [userId, createHash('sha256').update(token).digest('hex')]);
    const sender = await pool.query<{ id: string }>(
      `INSERT INTO chatapp_senders (user_id, phone_number, display_name, status, quality_rating, messaging_limit, country_code, calling_enabled, provider, created_at, updated_at)
       VALUES ($1, $2, 'Bench', 'online', 'GREEN', 1000, 'DE', false, 'sandbox', now(), now()) RETURNING id`,
      [userId, `+4916${String(i).padStart(9, '0')}`]);
    await pool.query(
      `INSERT INTO conversations (uuid, user_id, sender_id, customer_phone, status, ai_enabled, message_count, last_customer_message_at, ended_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'open', false, 0, now(), 0, now(), now())`,
      [randomUUID(), userId, sender.rows[0].id, CUSTOMER]);
    accounts.push({ token, senderId: Number(sender.rows[0].id) });
  }
  return accounts;
}

/** Round-robin over the accounts: each user gets an even share of the requests. One slice of `seconds`. */
async function slice(url: string, accounts: Account[], seconds: number): ReturnType<typeof autocannon> {
  let next = 0;
  return autocannon({
    url, method: 'POST' as const, connections: settings.connections, duration: seconds,
    requests: [{
      setupRequest: (req: Record<string, unknown>) => {
        const a = accounts[next++ % accounts.length];
        return { ...req, headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ sender_id: a.senderId, recipient_phone: CUSTOMER, message: MESSAGE }) };
      },
    }],
  });
}

/**
 * Every contender in turn, `SLICES` times (A B C D A B C D …), each slice a share of the duration:
 * on a shared machine whose load swings within a minute, contenders measured one after the other
 * meet different loads; interleaved, each meets the same mix. Throughput is all requests over all
 * slices' time; latencies are the medians of the slices' percentiles.
 */
async function measureInterleaved(contenders: readonly { label: string; url: string }[], accounts: Account[]): Promise<Measurement[]> {
  const slices = Number(process.env.BENCH_SLICES ?? 4);
  const seconds = Math.max(1, Math.round(settings.duration / slices));
  for (const c of contenders) await slice(c.url, accounts, 2); // warm-up: JIT and pools hot for all alike
  const results = contenders.map(() => [] as Awaited<ReturnType<typeof autocannon>>[]);
  for (let i = 0; i < slices; i++) {
    for (const [n, c] of contenders.entries()) results[n].push(await slice(c.url, accounts, seconds));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return contenders.map((c, n) => {
    const rs = results[n];
    return {
      label: c.label,
      rps: rs.reduce((sum, r) => sum + r.requests.total, 0) / (slices * seconds),
      p50: median(rs.map((r) => r.latency.p50)), p99: median(rs.map((r) => r.latency.p99)),
      non2xx: rs.reduce((sum, r) => sum + r.non2xx, 0), errors: rs.reduce((sum, r) => sum + r.errors, 0),
    };
  });
}

/**
 * The bare handler: the send's transaction and nothing else. With `prepared`, every statement is a
 * named prepared statement, as the product's hot path runs them on real PostgreSQL — the
 * comparison that shows what the product's own work costs, with parsing and planning taken out of both.
 */
function bareSends(pool: Pool, prepared: boolean): express.Express {
  const names = new Map<string, string>();
  const q = (on: Pool | PoolClient, text: string, values: unknown[]) => {
    if (!prepared) return on.query(text, values);
    if (!names.has(text)) names.set(text, `bare_send_${names.size}`);
    return on.query({ name: names.get(text), text, values });
  };
  const bare = express();
  bare.use(express.json());
  bare.post('/send-freeform', async (req, res) => {
    const client = await pool.connect();
    try {
      const principal = await bareAuthenticate(pool, req, prepared);
      if (!principal) { res.status(401).json({ error: 'Unauthorized' }); return; }
      const { sender_id: senderId, recipient_phone: to, message } = req.body as { sender_id: number; recipient_phone: string; message: string };
      const sender = await q(pool, `SELECT id, phone_number, status FROM chatapp_senders WHERE id = $1 AND user_id = $2`, [senderId, principal.user_id]);
      if (sender.rows.length === 0 || sender.rows[0].status !== 'online') { res.status(404).json({ success: false }); return; }
      await client.query('BEGIN');
      const balance = Number((await q(client, `SELECT balance FROM users WHERE id = $1 FOR UPDATE`, [principal.user_id])).rows[0].balance);
      const conversation = await q(client,
        `SELECT id, message_count, last_customer_message_at, last_template_sent_at FROM conversations WHERE sender_id = $1 AND customer_phone = $2 FOR UPDATE`, [senderId, to]);
      const c = conversation.rows[0];
      const opened = Math.max(c?.last_customer_message_at?.getTime() ?? 0, c?.last_template_sent_at?.getTime() ?? 0);
      if (!c || Date.now() >= opened + 86_400_000 || balance < 0.01) { await client.query('ROLLBACK'); res.status(403).json({ success: false }); return; }
      const now = new Date();
      await q(client, `UPDATE conversations SET message_count = message_count + 1, last_message_at = $2, updated_at = $2 WHERE id = $1`, [c.id, now]);
      const m = await q(client,
        `INSERT INTO conversation_messages (conversation_id, direction, source, type, body, created_at) VALUES ($1, 'outbound', 'api', 'text', $2, $3) RETURNING id`,
        [c.id, message, now]);
      const sid = `SM${randomUUID().replace(/-/g, '')}`;
      const cm = await q(client,
        `INSERT INTO chatapp_messages (user_id, message_id, sender_id, conversation_id, direction, from_phone, to_phone, message_sid, provider_message_id,
           status, cost, from_allowance, status_history, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'outbound', $5, $6, $7, $8, 'queued', 0.01, false, $9, $10, $10) RETURNING id`,
        [principal.user_id, m.rows[0].id, senderId, c.id, sender.rows[0].phone_number, to, sid, `bare_${sid}`, JSON.stringify([{ status: 'queued', at: now }]), now]);
      await q(client, `UPDATE users SET balance = balance - 0.01, updated_at = now() WHERE id = $1`, [principal.user_id]);
      await q(client,
        `INSERT INTO ledger_entries (user_id, type, amount, balance_after, description, reference_type, reference_id) VALUES ($1, 'charge', -0.01, $2, $3, 'chatapp_message', $4)`,
        [principal.user_id, balance - 0.01, `Freeform message ${sid}`, cm.rows[0].id]);
      await client.query('COMMIT');
      const expiresAt = new Date(opened + 86_400_000);
      const minutes = Math.floor((expiresAt.getTime() - now.getTime()) / 60_000);
      res.json({
        success: true, conversation_id: Number(c.id), message_id: Number(m.rows[0].id), chatapp_message_id: Number(cm.rows[0].id), message_sid: sid,
        session_status: { is_open: true, can_send_freeform: true, requires_template: false, message: `Session open (${Math.floor(minutes / 60)} hr ${minutes % 60} min remaining). Unlimited free-form messages allowed.`, minutes_remaining: minutes, expires_at: expiresAt.toISOString() },
      });
    } catch {
      await client.query('ROLLBACK').catch(() => undefined);
      if (!res.headersSent) res.status(500).json({ message: 'Server error.' });
    } finally {
      client.release();
    }
  });
  return bare;
}

async function main(): Promise<void> {
  const db = await benchDatabase();
  const api = await startComposedApi(db);
  const pool = new Pool({ connectionString: db.url, max: process.env.DATABASE_URL ? 20 : 8 });
  // A first user through the admin API gives the seeded ones a real plan.
  await fetch(`${api.url}/api/admin/users`, {
    method: 'POST', headers: { Authorization: `Bearer ${api.runtime.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Plan', email: `plan${Date.now()}@example.test` }),
  });
  const accounts = await seed(pool);

  const baseline = await listen(bareSends(pool, false));
  const preparedBaseline = await listen(bareSends(pool, true));
  const reserveBaseline = await listen(bareReserveSendApp(pool, '', ''));

  const probe = (url: string) => fetch(url, {
    method: 'POST', headers: { Authorization: `Bearer ${accounts[0].token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ sender_id: accounts[0].senderId, recipient_phone: CUSTOMER, message: MESSAGE }),
  }).then(async (r) => [r.status, Object.keys((await r.json()) as object).sort().join(',')]);
  const [ours, theirs, prepared] = await Promise.all([
    probe(`${api.url}/api/user/chatapp/send-freeform`), probe(`${baseline.url}/send-freeform`), probe(`${preparedBaseline.url}/send-freeform`),
  ]);
  const reserving = await probe(`${reserveBaseline.url}/send-freeform`);
  for (const other of [theirs, prepared, reserving]) {
    if (JSON.stringify(ours) !== JSON.stringify(other)) throw new Error(`voiceplane and a baseline disagree: ${JSON.stringify(ours)} vs ${JSON.stringify(other)}`);
  }

  const [subject, base, basePrepared, baseReserve] = await measureInterleaved([
    { label: 'voiceplane POST /chatapp/send-freeform', url: `${api.url}/api/user/chatapp/send-freeform` },
    { label: 'bare express + pg (same transaction)', url: `${baseline.url}/send-freeform` },
    { label: 'the same, prepared statements', url: `${preparedBaseline.url}/send-freeform` },
    { label: 'prepared, reserve + settle (2 tx)', url: `${reserveBaseline.url}/send-freeform` },
  ], accounts);
  report(`POST /api/user/chatapp/send-freeform (sandbox chat app, ${USERS} users round-robin)`, subject, base);
  reportAgainst(subject, basePrepared);
  reportAgainst(subject, baseReserve);

  await baseline.close();
  await preparedBaseline.close();
  await reserveBaseline.close();
  // Requests autocannon left in flight finish before the pools close.
  await new Promise((r) => setTimeout(r, 500));
  await pool.end();
  await api.close();
  await db.close();
}

runBench(main);
