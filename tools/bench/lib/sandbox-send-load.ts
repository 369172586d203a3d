/**
 * The accounts of the sandbox send benchmarks and one load slice over them (round-robin, so no
 * user nears the 5 sends/s quota).
 */
import { createHash, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { settings } from './harness';

export const USERS = 500;
export const CUSTOMER = '+14155551234';
export const MESSAGE = 'Your parcel is on its way and will arrive tomorrow between 9 and 12.';

export interface Account {
  readonly token: string;
  readonly senderId: number;
}

/** Users with an API key, a sandbox sender and a conversation whose window a customer opened just now. */
export async function seed(pool: Pool): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let i = 0; i < USERS; i++) {
    const token = `vp_${(randomUUID() + randomUUID()).replace(/-/g, '').slice(0, 40)}`;
    const user = await pool.query<{ id: string }>(
      `INSERT INTO users (name, email, plan, balance) VALUES ('Bench', $1, (SELECT plan FROM users ORDER BY id LIMIT 1) || '{"api_rate_limit_per_minute":100000}', 100000) RETURNING id`,
      [`bench-${i}-${Date.now()}@example.test`],
    );
    const userId = user.rows[0].id;
    await pool.query(`INSERT INTO api_keys (user_id, name, token_hash) VALUES ($1, 'bench', $2)`, [
      userId,
      createHash('sha256').update(token).digest('hex'),
    ]);
    const sender = await pool.query<{ id: string }>(
      `INSERT INTO chatapp_senders (user_id, phone_number, display_name, status, quality_rating, messaging_limit, country_code, calling_enabled, provider, created_at, updated_at)
       VALUES ($1, $2, 'Bench', 'online', 'GREEN', 1000, 'DE', false, 'sandbox', now(), now()) RETURNING id`,
      [userId, `+4916${String(i).padStart(9, '0')}`],
    );
    await pool.query(
      `INSERT INTO conversations (uuid, user_id, sender_id, customer_phone, status, ai_enabled, message_count, last_customer_message_at, ended_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'open', false, 0, now(), 0, now(), now())`,
      [randomUUID(), userId, sender.rows[0].id, CUSTOMER],
    );
    accounts.push({ token, senderId: Number(sender.rows[0].id) });
  }
  return accounts;
}

/** Round-robin over the accounts: each user gets an even share of the requests. One slice of `seconds`. */
export async function slice(url: string, accounts: Account[], seconds: number): ReturnType<typeof autocannon> {
  let next = 0;
  return autocannon({
    url,
    method: 'POST' as const,
    connections: settings.connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => {
          const a = accounts[next++ % accounts.length];
          return {
            ...req,
            headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ sender_id: a.senderId, recipient_phone: CUSTOMER, message: MESSAGE }),
          };
        },
      },
    ],
  });
}
