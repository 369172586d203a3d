import { AccountEvent, AccountEventType } from '@voiceplane/domain';
import { AccountEventStore, StreamLease } from '@voiceplane/application';
import { Database } from '../../database';
import { AccountEventRecord, EventStreamLeaseRecord } from '../../records';
import { num } from '../rows';

/** Namespace of the per-account advisory locks taken while counting an account's stream leases. */
const STREAM_LEASE_LOCK_CLASS = 7214021;

type EventRow = Pick<AccountEventRecord, 'id' | 'user_id' | 'type' | 'at' | 'data'>;

const toEvent = (r: EventRow): AccountEvent => ({
  id: r.id,
  type: r.type as AccountEventType,
  userId: num(r.user_id),
  at: new Date(r.at).getTime(),
  data: r.data as AccountEvent['data'],
});

export class PostgresAccountEventStore implements AccountEventStore {
  constructor(private readonly db: Database) {}

  async takeLease(lease: StreamLease, max: number, now: Date, until: Date): Promise<boolean> {
    return this.db.transaction(async () => {
      // Count and insert under one lock per account: two instances opening the account's last
      // place at once cannot both see it free (an account with no lease has no row to lock).
      await this.db.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [
        STREAM_LEASE_LOCK_CLASS,
        String(lease.userId),
      ]);
      await this.db.query(`DELETE FROM event_stream_leases WHERE user_id = $1 AND expires_at <= $2`, [
        lease.userId,
        now,
      ]);
      const taken = await this.db.query<Pick<EventStreamLeaseRecord, 'id'>>(
        `INSERT INTO event_stream_leases (id, user_id, instance, expires_at)
         SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM event_stream_leases WHERE user_id = $2) < $5
         RETURNING id`,
        [lease.id, lease.userId, lease.instance, until, max],
      );
      return taken.length === 1;
    });
  }

  async renewLeases(instance: string, now: Date, until: Date): Promise<string[]> {
    const rows = await this.db.query<Pick<EventStreamLeaseRecord, 'id'>>(
      `UPDATE event_stream_leases SET expires_at = $3 WHERE instance = $1 AND expires_at > $2 RETURNING id`,
      [instance, now, until],
    );
    return rows.map((r) => r.id);
  }

  async releaseLease(id: string): Promise<void> {
    await this.db.query(`DELETE FROM event_stream_leases WHERE id = $1`, [id]);
  }

  async releaseInstance(instance: string): Promise<void> {
    await this.db.query(`DELETE FROM event_stream_leases WHERE instance = $1`, [instance]);
  }

  async append(event: AccountEvent): Promise<void> {
    await this.db.query(
      `INSERT INTO account_events (id, user_id, type, at, data) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING`,
      [event.id, event.userId, event.type, new Date(event.at), JSON.stringify(event.data)],
    );
  }

  async after(userId: number, lastEventId: string, max: number): Promise<AccountEvent[] | null> {
    // The id is looked up within the account only: another account's id is "not held".
    const seen = await this.db.one<Pick<AccountEventRecord, 'seq'>>(
      `SELECT seq FROM account_events WHERE user_id = $1 AND id = $2`,
      [userId, lastEventId],
    );
    if (seen === null) return null;
    const rows = await this.db.query<EventRow>(
      `SELECT id, user_id, type, at, data FROM account_events WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [userId, seen.seq, max + 1],
    );
    return rows.length > max ? null : rows.map(toEvent);
  }

  async trim(before: Date, perAccount: number): Promise<void> {
    await this.db.query(`DELETE FROM account_events WHERE at < $1`, [before]);
    // What is left is at most 15 minutes of events: numbering them per account is cheap.
    await this.db.query(
      `DELETE FROM account_events WHERE seq IN (
         SELECT seq FROM (SELECT seq, row_number() OVER (PARTITION BY user_id ORDER BY seq DESC) AS n FROM account_events) r
          WHERE r.n > $1)`,
      [perAccount],
    );
  }
}
