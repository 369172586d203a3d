import { Clock, CryptoIds } from '@voiceplane/application';
import { Database, TypeormOutbox } from '@voiceplane/adapter-typeorm';

/** A fresh account row for records that belong to a user. */
export async function insertUser(db: Database, balance = 0): Promise<number> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO users (name, email, plan, balance) VALUES ('Contract', $1, '{}', $2) RETURNING id`,
    [`contract-${new CryptoIds().token('', 12)}@example.test`, balance],
  );
  return Number(row.id);
}

/** The real outbox, stamping events with `clock`. */
export function outboxOf(db: Database, clock: Clock): TypeormOutbox {
  return new TypeormOutbox(db, new CryptoIds(), clock);
}

/** What the outbox table holds, oldest first. */
export async function outboxEvents(db: Database): Promise<Array<{ topic: string; payload: unknown }>> {
  return db.query<{ topic: string; payload: unknown }>('SELECT topic, payload FROM outbox_events ORDER BY seq');
}
