/**
 * The bare one-transaction baseline of `chatapp-send`: express + pg doing a freeform send's
 * transaction and nothing else. Imported by the bench, or run as its own process (prepared
 * statements), printing its URL on stdout:
 *   DATABASE_URL=… node tools/dist/bench/lib/bare-send.js
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import { Pool, PoolClient } from 'pg';
import { bareAuthenticate } from './bare-auth';
import { serveBareProcess } from './bare-process';

/**
 * The bare handler: the send's transaction and nothing else. With `prepared`, every statement is a
 * named prepared statement, as the product's hot path runs them on real PostgreSQL — the
 * comparison that shows what the product's own work costs, with parsing and planning taken out of both.
 */
export function bareSends(pool: Pool, prepared: boolean): express.Express {
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
      if (!principal) {
        res.status(401).json({ error: 'Unauthorized' });
        return;
      }
      const {
        sender_id: senderId,
        recipient_phone: to,
        message,
      } = req.body as { sender_id: number; recipient_phone: string; message: string };
      const sender = await q(
        pool,
        `SELECT id, phone_number, status FROM chatapp_senders WHERE id = $1 AND user_id = $2`,
        [senderId, principal.user_id],
      );
      if (sender.rows.length === 0 || sender.rows[0].status !== 'online') {
        res.status(404).json({ success: false });
        return;
      }
      await client.query('BEGIN');
      const balance = Number(
        (await q(client, `SELECT balance FROM users WHERE id = $1 FOR UPDATE`, [principal.user_id])).rows[0].balance,
      );
      const conversation = await q(
        client,
        `SELECT id, message_count, last_customer_message_at, last_template_sent_at FROM conversations WHERE sender_id = $1 AND customer_phone = $2 FOR UPDATE`,
        [senderId, to],
      );
      const c = conversation.rows[0];
      const opened = Math.max(c?.last_customer_message_at?.getTime() ?? 0, c?.last_template_sent_at?.getTime() ?? 0);
      if (!c || Date.now() >= opened + 86_400_000 || balance < 0.01) {
        await client.query('ROLLBACK');
        res.status(403).json({ success: false });
        return;
      }
      const now = new Date();
      await q(
        client,
        `UPDATE conversations SET message_count = message_count + 1, last_message_at = $2, updated_at = $2 WHERE id = $1`,
        [c.id, now],
      );
      const m = await q(
        client,
        `INSERT INTO conversation_messages (conversation_id, direction, source, type, body, created_at) VALUES ($1, 'outbound', 'api', 'text', $2, $3) RETURNING id`,
        [c.id, message, now],
      );
      const sid = `SM${randomUUID().replace(/-/g, '')}`;
      const cm = await q(
        client,
        `INSERT INTO chatapp_messages (user_id, message_id, sender_id, conversation_id, direction, from_phone, to_phone, message_sid, provider_message_id,
           status, cost, from_allowance, status_history, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'outbound', $5, $6, $7, $8, 'queued', 0.01, false, $9, $10, $10) RETURNING id`,
        [
          principal.user_id,
          m.rows[0].id,
          senderId,
          c.id,
          sender.rows[0].phone_number,
          to,
          sid,
          `bare_${sid}`,
          JSON.stringify([{ status: 'queued', at: now }]),
          now,
        ],
      );
      await q(client, `UPDATE users SET balance = balance - 0.01, updated_at = now() WHERE id = $1`, [
        principal.user_id,
      ]);
      await q(
        client,
        `INSERT INTO ledger_entries (user_id, type, amount, balance_after, description, reference_type, reference_id) VALUES ($1, 'charge', -0.01, $2, $3, 'chatapp_message', $4)`,
        [principal.user_id, balance - 0.01, `Freeform message ${sid}`, cm.rows[0].id],
      );
      await client.query('COMMIT');
      const expiresAt = new Date(opened + 86_400_000);
      const minutes = Math.floor((expiresAt.getTime() - now.getTime()) / 60_000);
      res.json({
        success: true,
        conversation_id: Number(c.id),
        message_id: Number(m.rows[0].id),
        chatapp_message_id: Number(cm.rows[0].id),
        message_sid: sid,
        session_status: {
          is_open: true,
          can_send_freeform: true,
          requires_template: false,
          message: `Session open (${Math.floor(minutes / 60)} hr ${minutes % 60} min remaining). Unlimited free-form messages allowed.`,
          minutes_remaining: minutes,
          expires_at: expiresAt.toISOString(),
        },
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

if (require.main === module) serveBareProcess((pool) => bareSends(pool, true));
