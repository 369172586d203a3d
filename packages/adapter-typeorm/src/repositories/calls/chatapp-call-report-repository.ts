import { CallStatus, ChatappCallCandidate, ChatappCallReport } from '@voiceplane/domain';
import { ChatappCallReportChange, ChatappCallReportKey, ChatappCallReportRepository } from '@voiceplane/application';
import { Database } from '../../database';
import type { CallRecord, ChatappCallReportRecord } from '../../records/calls';
import { dateOrNull, num } from '../rows';

/** Namespaces of the advisory locks: one chat-app call id; one sender's calls to one customer. */
const META_CALL_LOCK_CLASS = 7214011;
const CONTACT_LOCK_CLASS = 7214012;
/** More candidates than a sender calls one customer within the window. */
const MAX_CANDIDATES = 20;

const COLUMNS = 'call_id, meta_call_id, connect_at, terminate_at, duration, status';

type ReportRow = Pick<
  ChatappCallReportRecord,
  'call_id' | 'meta_call_id' | 'connect_at' | 'terminate_at' | 'duration' | 'status'
>;
type CandidateRow = Pick<CallRecord, 'id' | 'status' | 'created_at' | 'finished_at'>;

function toReport(r: ReportRow): ChatappCallReport {
  return {
    callId: num(r.call_id),
    metaCallId: r.meta_call_id,
    connectAt: dateOrNull(r.connect_at),
    terminateAt: dateOrNull(r.terminate_at),
    duration: r.duration,
    status: r.status,
  };
}

export class TypeormChatappCallReportRepository implements ChatappCallReportRepository {
  constructor(private readonly db: Database) {}

  async findByCallId(callId: number): Promise<ChatappCallReport | null> {
    const row = await this.db.one<ReportRow>(`SELECT ${COLUMNS} FROM chatapp_call_reports WHERE call_id = $1`, [
      callId,
    ]);
    return row === null ? null : toReport(row);
  }

  record<A>(
    key: ChatappCallReportKey,
    decide: (
      current: ChatappCallReport | null,
      candidates: readonly ChatappCallCandidate[],
    ) => ChatappCallReportChange<A>,
  ): Promise<A> {
    return this.db.transaction(async () => {
      // Advisory locks rather than row locks: an id bound to no call yet has no row to lock. Always
      // the id first, then the contact, so two events never wait for each other's locks.
      await this.db.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [META_CALL_LOCK_CLASS, key.metaCallId]);
      const row = await this.db.one<ReportRow>(`SELECT ${COLUMNS} FROM chatapp_call_reports WHERE meta_call_id = $1`, [
        key.metaCallId,
      ]);
      const current = row === null ? null : toReport(row);
      const candidates = current === null && key.customerPhone !== null ? await this.candidates(key) : [];
      const { next, answer } = decide(current, candidates);
      if (next !== null) await this.store(current === null, next);
      return answer;
    });
  }

  private async candidates(key: ChatappCallReportKey): Promise<ChatappCallCandidate[]> {
    await this.db.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [
      CONTACT_LOCK_CLASS,
      `${key.senderId}:${key.customerPhone}`,
    ]);
    const rows = await this.db.query<CandidateRow>(
      `SELECT c.id, c.status, c.created_at, c.finished_at FROM calls c
        WHERE c.channel = 'chatapp' AND c.sender_id = $1 AND c.customer_phone = $2 AND (c.finished_at IS NULL OR c.finished_at >= $3)
          AND NOT EXISTS (SELECT 1 FROM chatapp_call_reports r WHERE r.call_id = c.id)
        ORDER BY c.created_at DESC, c.id DESC LIMIT ${MAX_CANDIDATES}`,
      [key.senderId, key.customerPhone, key.endedSince],
    );
    return rows.map((r) => ({
      callId: num(r.id),
      status: r.status as CallStatus,
      createdAt: new Date(r.created_at),
      finishedAt: dateOrNull(r.finished_at),
    }));
  }

  private async store(first: boolean, r: ChatappCallReport): Promise<void> {
    if (first) {
      // A second id for a bound call, or a second call for a bound id, violates a key: the item is
      // retried and judged again against what is stored then.
      await this.db.query(
        `INSERT INTO chatapp_call_reports (${COLUMNS}, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, now(), now())`,
        [r.callId, r.metaCallId, r.connectAt, r.terminateAt, r.duration, r.status],
      );
      return;
    }
    await this.db.query(
      `UPDATE chatapp_call_reports SET connect_at = $2, terminate_at = $3, duration = $4, status = $5, updated_at = now() WHERE meta_call_id = $1`,
      [r.metaCallId, r.connectAt, r.terminateAt, r.duration, r.status],
    );
  }
}
