import { GroupChange, leadTimezone, LeadStatus } from '@voiceplane/domain';
import {
  DueContact,
  DueZones,
  Lead,
  LeadChanges,
  LeadFilter,
  LeadRepository,
  NewLead,
  Page,
  PageRequest,
  StoredGroup,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { LeadRecord } from '../../records';
import { dateOrNull, num, numOrNull, pageClause } from '../rows';
import { Counted, totalOf } from '../assistants/paging';

const COLUMNS = `l.id, l.user_id, l.campaign_id, l.primary_lead_id, l.position, l.phone_number, l.variables, l.status, l.attempts, l.rounds_done,
  l.next_attempt_at, l.last_call_id, l.timezone, l.created_at, l.updated_at, c.name AS campaign_name,
  CASE WHEN c.window_in_lead_timezone THEN coalesce(l.timezone, c.timezone) ELSE c.timezone END AS timezone_used`;

type LeadRow = LeadRecord & { campaign_name: string; timezone_used: string };

function toLead(r: LeadRow, secondaryContacts: Lead[] = []): Lead {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    campaignId: num(r.campaign_id),
    campaignName: r.campaign_name,
    primaryLeadId: numOrNull(r.primary_lead_id),
    phoneNumber: r.phone_number,
    variables: r.variables,
    status: r.status as LeadStatus,
    attempts: r.attempts,
    nextAttemptAt: dateOrNull(r.next_attempt_at),
    lastCallId: numOrNull(r.last_call_id),
    timezoneUsed: r.timezone_used,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    secondaryContacts,
  };
}

/** Rows per INSERT of a bulk create: well under PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 1000;

export class TypeormLeadRepository implements LeadRepository {
  constructor(private readonly db: Database) {}

  async create(userId: number, campaignId: number, leads: readonly NewLead[], now: Date): Promise<number[]> {
    const ids: number[] = [];
    for (let start = 0; start < leads.length; start += INSERT_BATCH) {
      const batch = leads.slice(start, start + INSERT_BATCH);
      const primaries = await this.insert(
        userId,
        campaignId,
        batch.map((l) => ({ contact: l, primaryId: null, position: 0 })),
        now,
      );
      ids.push(...primaries);
      const secondaries = batch.flatMap((l, i) =>
        l.secondaryContacts.map((contact, p) => ({ contact, primaryId: primaries[i], position: p + 1 })),
      );
      if (secondaries.length > 0) await this.insert(userId, campaignId, secondaries, now);
    }
    return ids;
  }

  private async insert(
    userId: number,
    campaignId: number,
    rows: ReadonlyArray<{ contact: NewLead['secondaryContacts'][number]; primaryId: number | null; position: number }>,
    now: Date,
  ): Promise<number[]> {
    const inserted = await this.db.query<{ id: string }>(
      `INSERT INTO leads (user_id, campaign_id, primary_lead_id, position, phone_number, variables, status, timezone, created_at, updated_at)
       SELECT $1, $2, p, pos, phone, vars::json, st, tz, $3, $3
         FROM unnest($4::bigint[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS t(p, pos, phone, vars, st, tz, n)
        ORDER BY n
       RETURNING id`,
      [
        userId,
        campaignId,
        now,
        rows.map((r) => r.primaryId),
        rows.map((r) => r.position),
        rows.map((r) => r.contact.phoneNumber),
        rows.map((r) => JSON.stringify(r.contact.variables)),
        rows.map((r) => r.contact.status),
        rows.map((r) => leadTimezone(r.contact.variables, r.contact.phoneNumber)),
      ],
    );
    // bigserial ids follow the insert order of one statement.
    return inserted.map((r) => num(r.id)).sort((a, b) => a - b);
  }

  async countInCampaign(campaignId: number): Promise<number> {
    return num(
      (await this.db.one<{ n: string }>(`SELECT count(*) AS n FROM leads WHERE campaign_id = $1`, [campaignId]))?.n,
    );
  }

  async takenPhones(campaignId: number, phones: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ phone_number: string }>(
      `SELECT DISTINCT phone_number FROM leads WHERE campaign_id = $1 AND primary_lead_id IS NULL AND phone_number = ANY($2::text[])`,
      [campaignId, phones],
    );
    return new Set(rows.map((r) => r.phone_number));
  }

  async list(userId: number, filter: LeadFilter, page: PageRequest): Promise<Page<Lead>> {
    const where = ['l.user_id = $1', 'l.primary_lead_id IS NULL'];
    const params: unknown[] = [userId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replaceAll('?', `$${params.length}`));
    };
    if (filter.status !== undefined) add('l.status = ?', filter.status);
    if (filter.campaignId !== undefined) add('l.campaign_id = ?', filter.campaignId);
    if (filter.phoneNumber !== undefined) {
      add(
        `(strpos(l.phone_number, ?) > 0 OR EXISTS (SELECT 1 FROM leads s WHERE s.primary_lead_id = l.id AND strpos(s.phone_number, ?) > 0))`,
        filter.phoneNumber,
      );
    }
    if (filter.createdFrom !== undefined) add('l.created_at >= ?', filter.createdFrom);
    if (filter.createdBefore !== undefined) add('l.created_at < ?', filter.createdBefore);
    const limit = pageClause(page, params.length + 1);
    const rows = await this.db.query<LeadRow & Counted>(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM leads l JOIN campaigns c ON c.id = l.campaign_id
        WHERE ${where.join(' AND ')} ORDER BY l.id DESC ${limit.sql}`,
      [...params, ...limit.params],
    );
    const total = await totalOf(rows, () =>
      this.db.one<{ n: string }>(`SELECT count(*) AS n FROM leads l WHERE ${where.join(' AND ')}`, params),
    );
    const secondaries = await this.secondariesOf(rows.map((r) => num(r.id)));
    return { items: rows.map((r) => toLead(r, secondaries.get(num(r.id)) ?? [])), total };
  }

  async findOwned(userId: number, id: number): Promise<Lead | null> {
    const row = await this.db.one<LeadRow>(
      `SELECT ${COLUMNS} FROM leads l JOIN campaigns c ON c.id = l.campaign_id WHERE l.id = $1 AND l.user_id = $2`,
      [id, userId],
    );
    if (row === null) return null;
    if (row.primary_lead_id !== null) return toLead(row);
    return toLead(row, (await this.secondariesOf([num(row.id)])).get(num(row.id)) ?? []);
  }

  private async secondariesOf(primaryIds: readonly number[]): Promise<Map<number, Lead[]>> {
    const byPrimary = new Map<number, Lead[]>();
    if (primaryIds.length === 0) return byPrimary;
    const rows = await this.db.query<LeadRow>(
      `SELECT ${COLUMNS} FROM leads l JOIN campaigns c ON c.id = l.campaign_id WHERE l.primary_lead_id = ANY($1::bigint[]) ORDER BY l.position, l.id`,
      [primaryIds],
    );
    for (const r of rows) {
      const key = num(r.primary_lead_id);
      byPrimary.set(key, [...(byPrimary.get(key) ?? []), toLead(r)]);
    }
    return byPrimary;
  }

  async groupBeingCalled(id: number, options: { readonly lock?: boolean } = {}): Promise<boolean> {
    const primary = await this.db.one<{ id: string }>(
      `SELECT coalesce(primary_lead_id, id) AS id FROM leads WHERE id = $1`,
      [id],
    );
    if (primary === null) return false;
    if (options.lock)
      await this.db.query<Pick<LeadRecord, 'id'>>(`SELECT id FROM leads WHERE id = $1 FOR UPDATE`, [primary.id]);
    const busy = await this.db.one<{ id: string }>(
      `SELECT id FROM leads WHERE (id = $1 OR primary_lead_id = $1) AND status = 'processing' LIMIT 1`,
      [primary.id],
    );
    return busy !== null;
  }

  async update(id: number, changes: LeadChanges, now: Date): Promise<void> {
    const lead = await this.db.one<Pick<LeadRecord, 'primary_lead_id' | 'phone_number' | 'variables'>>(
      `SELECT primary_lead_id, phone_number, variables FROM leads WHERE id = $1`,
      [id],
    );
    if (lead === null) return;
    // The contact's own zone follows its number and its variables.
    const timezone = leadTimezone(changes.variables ?? lead.variables, changes.phoneNumber ?? lead.phone_number);
    await this.db.query(
      `UPDATE leads SET phone_number = coalesce($2, phone_number), variables = coalesce($3::json, variables), timezone = $5, updated_at = $4 WHERE id = $1`,
      [
        id,
        changes.phoneNumber ?? null,
        changes.variables === undefined ? null : JSON.stringify(changes.variables),
        now,
        timezone,
      ],
    );
    // A primary's status and campaign apply to its whole group.
    const group = lead.primary_lead_id === null ? '(id = $1 OR primary_lead_id = $1)' : 'id = $1';
    if (changes.campaignId !== undefined)
      await this.db.query<Pick<LeadRecord, 'id'>>(`UPDATE leads SET campaign_id = $2, updated_at = $3 WHERE ${group}`, [
        id,
        changes.campaignId,
        now,
      ]);
    if (changes.status !== undefined) {
      const reset =
        changes.status === 'created'
          ? ', attempts = 0, rounds_done = 0, next_attempt_at = NULL'
          : ', next_attempt_at = NULL';
      await this.db.query(`UPDATE leads SET status = $2${reset}, updated_at = $3 WHERE ${group}`, [
        id,
        changes.status,
        now,
      ]);
    }
  }

  async delete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM leads WHERE id = $1`, [id]);
  }

  async hasPending(campaignId: number): Promise<boolean> {
    return (
      (await this.db.one<Pick<LeadRecord, 'id'>>(
        `SELECT id FROM leads WHERE campaign_id = $1 AND status IN ('created', 'scheduled', 'processing', 'rescheduled') LIMIT 1`,
        [campaignId],
      )) !== null
    );
  }

  async promoteDueRounds(campaignId: number, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE leads SET status = 'scheduled' WHERE campaign_id = $1 AND status = 'rescheduled' AND next_attempt_at IS NOT NULL AND next_attempt_at <= $2`,
      [campaignId, at],
    );
  }

  async dueZones(campaignId: number): Promise<Array<string | null>> {
    const rows = await this.db.query<Pick<LeadRecord, 'timezone'>>(
      `SELECT DISTINCT timezone FROM leads WHERE campaign_id = $1 AND status IN ('created', 'scheduled')`,
      [campaignId],
    );
    return rows.map((r) => r.timezone);
  }

  async dueContacts(campaignId: number, limit: number, zones?: DueZones): Promise<DueContact[]> {
    const named = zones?.filter((z): z is string => z !== null) ?? null;
    const rows = await this.db.query<
      Pick<LeadRecord, 'id' | 'phone_number' | 'variables'> & { primary_variables: Record<string, string> | null }
    >(
      `SELECT l.id, l.phone_number, l.variables, p.variables AS primary_variables
         FROM leads l LEFT JOIN leads p ON p.id = l.primary_lead_id
        WHERE l.campaign_id = $1 AND l.status IN ('created', 'scheduled')
          AND ($3::text[] IS NULL OR l.timezone = ANY($3::text[]) OR ($4 AND l.timezone IS NULL))
          AND NOT EXISTS (SELECT 1 FROM leads g WHERE (g.id = coalesce(l.primary_lead_id, l.id) OR g.primary_lead_id = coalesce(l.primary_lead_id, l.id))
                             AND (g.status = 'processing' OR (g.status IN ('created', 'scheduled') AND g.position < l.position)))
        ORDER BY CASE WHEN l.status = 'created' THEN l.created_at ELSE coalesce(l.next_attempt_at, l.created_at) END, l.id
        LIMIT $2`,
      [campaignId, limit, named, zones?.includes(null) ?? false],
    );
    return rows.map((r) => ({
      id: num(r.id),
      phoneNumber: r.phone_number,
      variables: { ...(r.primary_variables ?? {}), ...r.variables },
    }));
  }

  async markCalling(id: number, callId: number, now: Date): Promise<void> {
    await this.db.query(`UPDATE leads SET status = 'processing', last_call_id = $2, updated_at = $3 WHERE id = $1`, [
      id,
      callId,
      now,
    ]);
  }

  async groupOf(id: number): Promise<StoredGroup | null> {
    const primary = await this.db.one<{ id: string }>(
      `SELECT coalesce(primary_lead_id, id) AS id FROM leads WHERE id = $1`,
      [id],
    );
    if (primary === null) return null;
    await this.db.query(`SELECT id FROM leads WHERE id = $1 FOR UPDATE`, [primary.id]);
    const rows = await this.db.query<
      Pick<
        LeadRecord,
        'id' | 'campaign_id' | 'status' | 'attempts' | 'rounds_done' | 'last_call_id' | 'primary_lead_id'
      >
    >(
      `SELECT id, campaign_id, status, attempts, rounds_done, last_call_id, primary_lead_id FROM leads
        WHERE id = $1 OR primary_lead_id = $1 ORDER BY position, id`,
      [primary.id],
    );
    const head = rows.find((r) => r.primary_lead_id === null);
    if (!head) return null;
    return {
      primaryId: num(head.id),
      campaignId: num(head.campaign_id),
      roundsDone: head.rounds_done,
      contacts: rows.map((r) => ({ id: num(r.id), status: r.status as LeadStatus, attempts: r.attempts })),
      lastCallIds: new Map(rows.map((r) => [num(r.id), numOrNull(r.last_call_id)])),
    };
  }

  async applyGroupChange(group: StoredGroup, change: GroupChange, now: Date): Promise<void> {
    const ids = group.contacts.map((c) => c.id);
    const status = ids.map((id) => change.statuses.get(id) ?? null);
    const attempts = ids.map((id) => change.attempts.get(id) ?? null);
    await this.db.query(
      `UPDATE leads l SET status = coalesce(t.status, l.status), attempts = coalesce(t.attempts, l.attempts),
              next_attempt_at = CASE WHEN t.status IS NULL THEN l.next_attempt_at WHEN t.status = 'rescheduled' THEN $4::timestamptz ELSE NULL END,
              updated_at = CASE WHEN t.status IS NULL AND t.attempts IS NULL THEN l.updated_at ELSE $5 END
         FROM unnest($1::bigint[], $2::text[], $3::int[]) AS t(id, status, attempts) WHERE l.id = t.id`,
      [ids, status, attempts, change.nextAttemptAt, now],
    );
    await this.db.query(`UPDATE leads SET rounds_done = $2 WHERE id = $1`, [group.primaryId, change.roundsDone]);
  }

  async findById(id: number): Promise<Lead | null> {
    const row = await this.db.one<LeadRow>(
      `SELECT ${COLUMNS} FROM leads l JOIN campaigns c ON c.id = l.campaign_id WHERE l.id = $1`,
      [id],
    );
    return row ? toLead(row) : null;
  }
}
