/**
 * The bare baseline of the provider-latency send benchmark, run as its own process: express + pg
 * with named prepared statements doing what a freeform send does with a slow chat app — reserve in
 * one short transaction (balance row lock, open reservations, conversation lock and window check,
 * reservation row), call the provider with no transaction open, settle in a second short
 * transaction (same lock order; reservation closed, conversation, message, delivery record, debit,
 * ledger entry). Prints its URL on stdout. Without GRAPH_BASE_URL the provider is the sandbox (no
 * HTTP call): the like-for-like baseline of `chatapp-send`, which imports `bareReserveSendApp`.
 *   DATABASE_URL=… GRAPH_BASE_URL=… GRAPH_TOKEN=… node tools/dist/bench/lib/bare-reserve-send.js
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import { Pool, PoolClient } from 'pg';
import { bareAuthenticate } from './bare-auth';
import { serveBareProcess } from './bare-process';

const PRICE = 0.01;
const names = new Map<string, string>();
const q = (on: Pool | PoolClient, text: string, values: unknown[]) => {
  if (!names.has(text)) names.set(text, `bare_reserve_${names.size}`);
  return on.query({ name: names.get(text), text, values });
};

/** `graph` empty: a sandbox chat app, accepted at once without HTTP. */
export function bareReserveSendApp(pool: Pool, graph: string, token: string): express.Express {
  async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  const app = express();
  app.use(express.json());
  app.post('/send-freeform', async (req, res) => {
    try {
      const principal = await bareAuthenticate(pool, req, true);
      if (!principal) {
        res.status(401).json({ error: 'Unauthorized' });
        return;
      }
      const userId = principal.user_id;
      const {
        sender_id: senderId,
        recipient_phone: to,
        message,
      } = req.body as { sender_id: number; recipient_phone: string; message: string };
      const sender = await q(
        pool,
        `SELECT id, phone_number, status, provider_sender_ref FROM chatapp_senders WHERE id = $1 AND user_id = $2`,
        [senderId, userId],
      );
      if (sender.rows.length === 0 || sender.rows[0].status !== 'online') {
        res.status(404).json({ success: false });
        return;
      }
      const sid = `SM${randomUUID().replace(/-/g, '')}`;
      const reserved = await inTransaction(async (client) => {
        const balance = Number(
          (await q(client, `SELECT balance FROM users WHERE id = $1 FOR UPDATE`, [userId])).rows[0].balance,
        );
        const held = Number(
          (
            await q(
              client,
              `SELECT coalesce(sum(amount), 0) AS held FROM chatapp_send_reservations WHERE user_id = $1 AND outcome IS NULL`,
              [userId],
            )
          ).rows[0].held,
        );
        const c = (
          await q(
            client,
            `SELECT id, last_customer_message_at, last_template_sent_at FROM conversations WHERE sender_id = $1 AND customer_phone = $2 FOR UPDATE`,
            [senderId, to],
          )
        ).rows[0];
        const opened = Math.max(c?.last_customer_message_at?.getTime() ?? 0, c?.last_template_sent_at?.getTime() ?? 0);
        if (!c || Date.now() >= opened + 86_400_000 || balance - held < PRICE) return null;
        const r = await q(
          client,
          `INSERT INTO chatapp_send_reservations (user_id, sender_id, recipient_phone, message_sid, amount, from_allowance, message, created_at)
           VALUES ($1, $2, $3, $4, $5, false, $6, now()) RETURNING id`,
          [userId, senderId, to, sid, PRICE, JSON.stringify({ body: message })],
        );
        return { id: r.rows[0].id, conversationId: c.id, opened };
      });
      if (reserved === null) {
        res.status(403).json({ success: false });
        return;
      }
      const sent =
        graph === ''
          ? new Response(JSON.stringify({ messages: [{ id: `bare_${sid}` }] }))
          : await fetch(`${graph}/${sender.rows[0].provider_sender_ref}/messages`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({
                messaging_product: 'whatsapp',
                recipient_type: 'individual',
                to: to.slice(1),
                type: 'text',
                text: { preview_url: false, body: message },
              }),
            });
      if (!sent.ok) {
        await q(
          pool,
          `UPDATE chatapp_send_reservations SET outcome = 'released', closed_at = now() WHERE id = $1 AND outcome IS NULL`,
          [reserved.id],
        );
        res.status(422).json({ success: false });
        return;
      }
      const providerId = ((await sent.json()) as { messages: { id: string }[] }).messages[0].id;
      const now = new Date();
      const settled = await inTransaction(async (client) => {
        const balance = Number(
          (await q(client, `SELECT balance FROM users WHERE id = $1 FOR UPDATE`, [userId])).rows[0].balance,
        );
        await q(client, `SELECT id FROM conversations WHERE id = $1 FOR UPDATE`, [reserved.conversationId]);
        await q(
          client,
          `UPDATE chatapp_send_reservations SET outcome = 'sent', closed_at = now() WHERE id = $1 AND outcome IS NULL RETURNING id`,
          [reserved.id],
        );
        await q(
          client,
          `UPDATE conversations SET message_count = message_count + 1, last_message_at = $2, updated_at = $2 WHERE id = $1`,
          [reserved.conversationId, now],
        );
        const m = await q(
          client,
          `INSERT INTO conversation_messages (conversation_id, direction, source, type, body, created_at) VALUES ($1, 'outbound', 'api', 'text', $2, $3) RETURNING id`,
          [reserved.conversationId, message, now],
        );
        const cm = await q(
          client,
          `INSERT INTO chatapp_messages (user_id, message_id, sender_id, conversation_id, direction, from_phone, to_phone, message_sid, provider_message_id,
             status, cost, from_allowance, status_history, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'outbound', $5, $6, $7, $8, 'sent', $9, false, $10, $11, $11) RETURNING id`,
          [
            userId,
            m.rows[0].id,
            senderId,
            reserved.conversationId,
            sender.rows[0].phone_number,
            to,
            sid,
            providerId,
            PRICE,
            JSON.stringify([{ status: 'sent', at: now }]),
            now,
          ],
        );
        await q(client, `UPDATE users SET balance = balance - $2, updated_at = now() WHERE id = $1`, [userId, PRICE]);
        await q(
          client,
          `INSERT INTO ledger_entries (user_id, type, amount, balance_after, description, reference_type, reference_id) VALUES ($1, 'charge', $2, $3, $4, 'chatapp_message', $5)`,
          [userId, -PRICE, balance - PRICE, `Freeform message ${sid}`, cm.rows[0].id],
        );
        return { messageId: m.rows[0].id, chatappId: cm.rows[0].id };
      });
      const expiresAt = new Date(reserved.opened + 86_400_000);
      const minutes = Math.floor((expiresAt.getTime() - now.getTime()) / 60_000);
      res.json({
        success: true,
        conversation_id: Number(reserved.conversationId),
        message_id: Number(settled.messageId),
        chatapp_message_id: Number(settled.chatappId),
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
      if (!res.headersSent) res.status(500).json({ message: 'Server error.' });
    }
  });
  return app;
}

if (require.main === module)
  serveBareProcess((pool) => bareReserveSendApp(pool, process.env.GRAPH_BASE_URL ?? '', process.env.GRAPH_TOKEN ?? ''));
