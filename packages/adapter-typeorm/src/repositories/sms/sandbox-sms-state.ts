import { SandboxSmsSent, SandboxSmsState } from '@voiceplane/application';
import { Database } from '../../database';
import type { SandboxSmsSentRecord } from '../../records';
import { num } from '../rows';

/** The sandbox SMS provider's side in PostgreSQL (its faults share `sandbox_faults` with the other sandbox providers). */
export class PostgresSandboxSmsState implements SandboxSmsState {
  constructor(private readonly db: Database) {}

  /** One statement: the fault check and the outbox row (a fault aimed at the number is used first). */
  async accept(m: SandboxSmsSent, faultKind: string): Promise<'sent' | 'faulted'> {
    const rows = await this.db.query<{ faulted: boolean }>(
      `WITH hit AS (
         UPDATE sandbox_faults f SET remaining = f.remaining - 1
          WHERE f.id = (SELECT id FROM sandbox_faults WHERE user_id = $1 AND kind = $8 AND remaining > 0 AND (target_id IS NULL OR target_id = $2)
                         ORDER BY target_id IS NULL LIMIT 1 FOR UPDATE)
         RETURNING f.id
       ), sent AS (
         INSERT INTO sandbox_sms_sent (user_id, phone_number_id, from_phone, to_phone, body, provider_message_id, sent_at)
         SELECT $1, $2, $3, $4, $5, $6, $7 WHERE NOT EXISTS (SELECT 1 FROM hit) RETURNING id
       )
       SELECT EXISTS (SELECT 1 FROM hit) AS faulted`,
      [m.userId, m.phoneNumberId, m.from, m.to, m.body, m.providerMessageId, m.at, faultKind],
    );
    return rows[0].faulted ? 'faulted' : 'sent';
  }

  armFault(a: { userId: number; targetId: number | null; count: number; kind: string }): Promise<number> {
    return this.db.transaction(async () => {
      await this.db.query(
        `DELETE FROM sandbox_faults WHERE user_id = $1 AND kind = $2 AND target_id IS NOT DISTINCT FROM $3`,
        [a.userId, a.kind, a.targetId],
      );
      if (a.count > 0)
        await this.db.query(
          `INSERT INTO sandbox_faults (user_id, kind, target_id, remaining) VALUES ($1, $2, $3, $4)`,
          [a.userId, a.kind, a.targetId, a.count],
        );
      return a.count;
    });
  }

  async wasSent(userId: number, providerMessageId: string): Promise<boolean> {
    const row = await this.db.one<{ hit: number }>(
      `SELECT 1 AS hit FROM sandbox_sms_sent WHERE user_id = $1 AND provider_message_id = $2 LIMIT 1`,
      [userId, providerMessageId],
    );
    return row !== null;
  }

  async outbox(userId: number, limit: number): Promise<SandboxSmsSent[]> {
    const rows = await this.db.query<SandboxSmsSentRecord>(
      `SELECT * FROM sandbox_sms_sent WHERE user_id = $1 ORDER BY id DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({
      userId: num(r.user_id),
      phoneNumberId: num(r.phone_number_id),
      from: r.from_phone,
      to: r.to_phone,
      body: r.body,
      providerMessageId: r.provider_message_id,
      at: new Date(r.sent_at),
    }));
  }
}
