import {
  Call,
  CallChannel,
  CallStatus,
  CallSummary,
  OpenCallCounts,
  err,
  isTerminal,
  ok,
  Result,
  RuntimeConfig,
  SipLine,
  TranscriptItem,
} from '@voiceplane/domain';
import {
  AcceptedRuntimeEvent,
  CallChange,
  CallChanges,
  CallFilter,
  ChatappCallActivity,
  CallNotFound,
  CallRepository,
  InboundRoute,
  Outbox,
  NewCall,
  Page,
  PageRequest,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { CallRecord, PhoneNumberRecord, SipTrunkRecord } from '../../records';
import { dateOrNull, num, numOrNull, pageClause } from '../rows';
import { Counted, totalOf } from '../assistants/paging';

const SUMMARY_COLUMNS = `id, user_id, assistant_id, direction, channel, status, customer_phone, assistant_phone, phone_number_id,
  sender_id, conversation_id, automation_run_id, variables, extracted_variables, duration, cost, recording_url, ended_reason,
  provider_call_id, campaign_id, lead_id, created_at, answered_at, finished_at, updated_at`;
const COLUMNS = `${SUMMARY_COLUMNS}, transcript_items, runtime_config`;

/** SUMMARY_COLUMNS: the call without its documents. COLUMNS is every column of `calls`: a whole `CallRecord`. */
type SummaryRow = Omit<CallRecord, 'transcript_items' | 'runtime_config'>;

/** The number a call came in on, its SIP trunk if any (LEFT JOIN) and the inbound assistant answering it if any. */
type InboundRouteRow = Pick<PhoneNumberRecord, 'id' | 'user_id' | 'phone_number'> & {
  [K in 'outbound_trunk_id' | 'sip_calling_format' | 'outbound_proxy']: SipTrunkRecord[K] | null;
} & { assistant_id: string | null };

function toSummary(r: SummaryRow): CallSummary {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    assistantId: num(r.assistant_id),
    direction: r.direction as Call['direction'],
    channel: r.channel as Call['channel'],
    status: r.status as CallStatus,
    customerPhone: r.customer_phone,
    assistantPhone: r.assistant_phone ?? null,
    phoneNumberId: numOrNull(r.phone_number_id),
    senderId: numOrNull(r.sender_id),
    conversationId: r.conversation_id ?? null,
    automationRunId: r.automation_run_id ?? null,
    variables: r.variables as Record<string, string>,
    extractedVariables: r.extracted_variables,
    duration: num(r.duration),
    cost: num(r.cost),
    recordingUrl: r.recording_url ?? null,
    endedReason: r.ended_reason ?? null,
    providerCallId: r.provider_call_id ?? null,
    campaignId: numOrNull(r.campaign_id),
    leadId: numOrNull(r.lead_id),
    createdAt: new Date(r.created_at),
    answeredAt: dateOrNull(r.answered_at),
    finishedAt: dateOrNull(r.finished_at),
    updatedAt: new Date(r.updated_at),
  };
}

function toCall(r: CallRecord): Call {
  return {
    ...toSummary(r),
    transcript: r.transcript_items as TranscriptItem[],
    runtimeConfig: r.runtime_config as unknown as RuntimeConfig,
  };
}

/** Column and encoding of each field an event may change. */
const CHANGE_COLUMNS: { readonly [K in keyof CallChanges]-?: { readonly column: string; readonly json?: true } } = {
  status: { column: 'status' },
  answeredAt: { column: 'answered_at' },
  finishedAt: { column: 'finished_at' },
  duration: { column: 'duration' },
  cost: { column: 'cost' },
  recordingUrl: { column: 'recording_url' },
  endedReason: { column: 'ended_reason' },
  extractedVariables: { column: 'extracted_variables', json: true },
  transcript: { column: 'transcript_items', json: true },
};

/** Namespace of the per-sender advisory locks that serialise chat-app call placement. */
const SENDER_LINE_LOCK_CLASS = 7214003;

export class TypeormCallRepository implements CallRepository {
  constructor(
    private readonly db: Database,
    private readonly outbox: Outbox,
  ) {}

  async chatappActivity(
    senderId: number,
    customerPhone: string,
    since: Date,
    lock: boolean,
  ): Promise<ChatappCallActivity> {
    // An advisory lock: the sender's row belongs to the chat-app capability, and a sender with no call has no call row to lock.
    if (lock) {
      await this.db.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [SENDER_LINE_LOCK_CLASS, String(senderId)]);
    }
    const rows = await this.db.query<{ status: CallStatus; customer_phone: string; created_at: string }>(
      `SELECT status, customer_phone, created_at FROM calls
        WHERE channel = 'chatapp' AND sender_id = $1
          AND (status NOT IN ('completed', 'busy', 'no-answer', 'failed', 'canceled') OR (customer_phone = $2 AND created_at >= $3))
        ORDER BY id`,
      [senderId, customerPhone, since],
    );
    return {
      openStatuses: rows.map((r) => r.status).filter((s) => !isTerminal(s)),
      contactAttempts: rows
        .filter((r) => r.customer_phone === customerPhone && new Date(r.created_at) >= since)
        .map((r) => new Date(r.created_at)),
    };
  }

  async create(call: NewCall): Promise<{ call: Call; created: boolean }> {
    // Raw SQL: ON CONFLICT on the partial unique provider id answers a repeated inbound report with no row instead of an error.
    const row = await this.db.one<CallRecord>(
      `INSERT INTO calls (user_id, assistant_id, direction, channel, status, customer_phone, assistant_phone, phone_number_id,
         sender_id, conversation_id, automation_run_id, variables, runtime_config, provider_call_id, created_at, updated_at, campaign_id, lead_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::json, $13::json, $14, $15, $15, $16, $17)
       ON CONFLICT (provider_call_id) WHERE provider_call_id IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        call.userId,
        call.assistantId,
        call.direction,
        call.channel,
        call.status,
        call.customerPhone,
        call.line?.phoneNumber ?? null,
        call.line?.phoneNumberId ?? null,
        call.senderId ?? null,
        call.conversationId ?? null,
        call.automationRunId ?? null,
        JSON.stringify(call.variables),
        JSON.stringify(call.runtimeConfig),
        call.providerCallId ?? null,
        call.now,
        call.campaignId ?? null,
        call.leadId ?? null,
      ],
    );
    if (row !== null) return { call: toCall(row), created: true };
    // Only a provider call id can conflict: the same inbound call, reported twice.
    const existing = await this.findByProviderCallId(call.providerCallId as string);
    if (existing === null)
      throw new Error(`Call with provider id ${call.providerCallId} vanished while being created.`);
    return { call: existing, created: false };
  }

  async openCallCounts(userId: number): Promise<OpenCallCounts> {
    const rows = await this.db.query<{ channel: CallChannel; n: string }>(
      `SELECT channel, count(*) AS n FROM calls WHERE user_id = $1 AND status IN ('initiated', 'queued', 'ringing', 'in-progress') GROUP BY channel`,
      [userId],
    );
    const counts = { phone: 0, chatapp: 0 };
    for (const r of rows) counts[r.channel] = Number(r.n);
    return counts;
  }

  async countActive(userId: number): Promise<number> {
    const row = await this.db.one<{ n: string }>(
      `SELECT count(*) AS n FROM calls WHERE user_id = $1 AND status IN ('initiated', 'queued', 'ringing', 'in-progress')`,
      [userId],
    );
    return Number(row?.n ?? 0);
  }

  async findOwned(userId: number, id: number): Promise<Call | null> {
    const row = await this.db.one<CallRecord>(`SELECT ${COLUMNS} FROM calls WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return row ? toCall(row) : null;
  }

  async list(userId: number, filter: CallFilter, page: PageRequest): Promise<Page<CallSummary>> {
    const where = ['user_id = $1'];
    const params: unknown[] = [userId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.assistantId !== undefined) add('assistant_id = ?', filter.assistantId);
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.direction !== undefined) add('direction = ?', filter.direction);
    if (filter.channel !== undefined) add('channel = ?', filter.channel);
    if (filter.customerPhone !== undefined) add('customer_phone = ?', filter.customerPhone);
    if (filter.automationRunId !== undefined) add('automation_run_id = ?', filter.automationRunId);
    if (filter.campaignId !== undefined) add('campaign_id = ?', filter.campaignId);
    if (filter.from !== undefined) add('created_at >= ?', filter.from);
    if (filter.to !== undefined) add('created_at <= ?', filter.to);
    const limit = pageClause(page, params.length + 1);
    const rows = await this.db.query<SummaryRow & Counted>(
      `SELECT ${SUMMARY_COLUMNS}, count(*) OVER () AS total FROM calls WHERE ${where.join(' AND ')} ORDER BY id DESC ${limit.sql}`,
      [...params, ...limit.params],
    );
    const total = await totalOf(rows, () =>
      this.db.one<{ n: string }>(`SELECT count(*) AS n FROM calls WHERE ${where.join(' AND ')}`, params),
    );
    return { items: rows.map(toSummary), total };
  }

  async findById(id: number): Promise<Call | null> {
    const row = await this.db.one<CallRecord>(`SELECT ${COLUMNS} FROM calls WHERE id = $1`, [id]);
    return row ? toCall(row) : null;
  }

  async findByProviderCallId(providerCallId: string): Promise<Call | null> {
    const row = await this.db.one<CallRecord>(`SELECT ${COLUMNS} FROM calls WHERE provider_call_id = $1`, [
      providerCallId,
    ]);
    return row ? toCall(row) : null;
  }

  update<A, E>(
    id: number,
    decide: (call: Call) => Promise<Result<CallChange<A>, E>>,
  ): Promise<Result<A, E | CallNotFound>> {
    return this.db.transaction(async () => {
      // Raw SQL: the row lock makes the runtime events and dispatch failures of one call take turns.
      const row = await this.db.one<CallRecord>(`SELECT ${COLUMNS} FROM calls WHERE id = $1 FOR UPDATE`, [id]);
      if (row === null) return err({ code: 'call_not_found' as const });
      const decision = await decide(toCall(row));
      if (!decision.ok) return decision;
      const { changes, events = [], at, answer } = decision.value;
      await this.write(id, changes, at);
      await this.outbox.add(events);
      return ok(answer);
    });
  }

  delete<E>(
    userId: number,
    id: number,
    decide: (call: Call) => Promise<Result<void, E>>,
  ): Promise<Result<Call, E | CallNotFound>> {
    return this.db.transaction(async () => {
      // Raw SQL: the row lock keeps a runtime event from moving the call while it is judged and deleted.
      const row = await this.db.one<CallRecord>(
        `SELECT ${COLUMNS} FROM calls WHERE id = $1 AND user_id = $2 FOR UPDATE`,
        [id, userId],
      );
      if (row === null) return err({ code: 'call_not_found' as const });
      const call = toCall(row);
      const decision = await decide(call);
      if (!decision.ok) return decision;
      await this.db.query(`DELETE FROM calls WHERE id = $1`, [id]);
      return ok(call);
    });
  }

  private async write(id: number, changes: CallChanges, at: Date): Promise<void> {
    const params: unknown[] = [id, at];
    const sets = ['updated_at = $2'];
    for (const key of Object.keys(CHANGE_COLUMNS) as Array<keyof CallChanges>) {
      const value = changes[key];
      if (value === undefined) continue;
      const { column, json } = CHANGE_COLUMNS[key];
      params.push(json ? JSON.stringify(value) : value);
      sets.push(`${column} = $${params.length}${json ? '::json' : ''}`);
    }
    if (sets.length === 1) return;
    await this.db.query(`UPDATE calls SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  async findRuntimeEvent(callId: number, eventId: string): Promise<AcceptedRuntimeEvent | null> {
    const row = await this.db.one<{ type: AcceptedRuntimeEvent['type']; status: CallStatus }>(
      `SELECT type, status FROM call_runtime_events WHERE call_id = $1 AND event_id = $2`,
      [callId, eventId],
    );
    return row ? { type: row.type, status: row.status } : null;
  }

  async recordRuntimeEvent(callId: number, eventId: string, event: AcceptedRuntimeEvent, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO call_runtime_events (call_id, event_id, type, status, received_at) VALUES ($1, $2, $3, $4, $5)`,
      [callId, eventId, event.type, event.status, at],
    );
  }

  async inboundRoute(to: string, inboundTrunkId: string | null): Promise<InboundRoute | null> {
    const select = `SELECT p.id, p.user_id, p.phone_number, t.outbound_trunk_id, t.sip_calling_format, t.outbound_proxy, a.id AS assistant_id
      FROM phone_numbers p
      LEFT JOIN sip_trunks t ON t.id = p.id
      LEFT JOIN assistants a ON a.phone_number_id = p.id AND a.type = 'inbound'`;
    // Several accounts may register the same SIP extension; a number that can answer wins, then a
    // purchased number (unique across accounts), then the oldest.
    const order = `ORDER BY (a.status = 'active' AND NOT a.compliance_blocked) IS TRUE DESC, p.type = 'purchased' DESC, p.id LIMIT 1`;
    const row =
      inboundTrunkId !== null
        ? await this.db.one<InboundRouteRow>(`${select} WHERE t.inbound_trunk_id = $1 ${order}`, [inboundTrunkId])
        : await this.db.one<InboundRouteRow>(`${select} WHERE p.phone_number IN ($1, $2) ${order}`, [
            to,
            to.startsWith('+') ? to.slice(1) : `+${to}`,
          ]);
    if (row === null) return null;
    const sip: SipLine | null = row.outbound_trunk_id
      ? {
          outboundTrunkId: row.outbound_trunk_id,
          callingFormat: row.sip_calling_format as string,
          outboundProxy: row.outbound_proxy as boolean,
        }
      : null;
    return {
      userId: num(row.user_id),
      phoneNumberId: num(row.id),
      phoneNumber: row.phone_number,
      sip,
      assistantId: numOrNull(row.assistant_id),
    };
  }
}
