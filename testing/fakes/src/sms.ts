import { SmsStatus } from '@voiceplane/domain';
import {
  NewSmsMessage,
  Page,
  PageRequest,
  SandboxSmsSent,
  SandboxSmsState,
  SmsMessage,
  SmsMessageRepository,
  SmsStatusReport,
} from '@voiceplane/application';
import { pageOf } from './paging';

/** The SMS log in memory (see the SMS repository contract). */
export class InMemorySmsMessageRepository implements SmsMessageRepository {
  private readonly rows = new Map<number, SmsMessage>();
  private lastId = 0;

  async held(userId: number): Promise<number> {
    return (
      [...this.rows.values()]
        .filter((m) => m.userId === userId && m.settlement === 'pending')
        .reduce((sum, m) => sum + Math.round(m.cost * 10_000), 0) / 10_000
    );
  }

  async reserve(m: NewSmsMessage): Promise<SmsMessage> {
    const { now, ...fields } = m;
    const row: SmsMessage = {
      ...fields,
      id: ++this.lastId,
      settlement: 'pending',
      status: 'sent',
      providerMessageId: null,
      errorCode: null,
      errorMessage: null,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    };
    this.rows.set(row.id, row);
    return { ...row };
  }

  async settle(id: number, providerMessageId: string, now: Date): Promise<SmsMessage | null> {
    const row = this.rows.get(id);
    if (!row || row.settlement !== 'pending') return null;
    return this.put({ ...row, settlement: 'settled', providerMessageId, updatedAt: new Date(now) });
  }

  async release(id: number, reason: string, now: Date): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.settlement !== 'pending') return false;
    this.put({
      ...row,
      settlement: 'released',
      status: 'failed',
      cost: 0,
      errorMessage: reason,
      updatedAt: new Date(now),
    });
    return true;
  }

  async report(
    report: SmsStatusReport,
    next: (current: SmsStatus) => SmsStatus | null,
    now: Date,
  ): Promise<SmsMessage | null> {
    const row = this.rows.get(report.reference);
    if (!row || row.settlement === 'released') return null;
    if (row.providerMessageId !== null && row.providerMessageId !== report.providerMessageId) return null;
    const status = next(row.status);
    if (row.settlement === 'pending' && row.providerMessageId === null)
      this.put({ ...row, providerMessageId: report.providerMessageId });
    if (status === null) return null;
    const current = this.rows.get(row.id)!;
    return this.put({
      ...current,
      status,
      errorCode: report.errorCode,
      errorMessage: report.errorMessage,
      updatedAt: new Date(now),
    });
  }

  async find(userId: number, id: number): Promise<SmsMessage | null> {
    const row = this.rows.get(id);
    return row && row.userId === userId ? { ...row } : null;
  }

  async list(userId: number, page: PageRequest): Promise<Page<SmsMessage>> {
    const mine = [...this.rows.values()].filter((m) => m.userId === userId).sort((a, b) => b.id - a.id);
    return pageOf(
      mine.map((m) => ({ ...m })),
      page,
    );
  }

  async stalePending(before: Date, limit: number): Promise<SmsMessage[]> {
    return [...this.rows.values()]
      .filter((m) => m.settlement === 'pending' && m.createdAt < before)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
      .slice(0, limit)
      .map((m) => ({ ...m }));
  }

  private put(row: SmsMessage): SmsMessage {
    this.rows.set(row.id, row);
    return { ...row };
  }
}

/** The sandbox SMS provider's state in memory (see the sandbox SMS state contract). */
export class InMemorySandboxSmsState implements SandboxSmsState {
  private readonly sent: SandboxSmsSent[] = [];
  private faults: Array<{ kind: string; userId: number; targetId: number | null; remaining: number }> = [];

  async accept(message: SandboxSmsSent, faultKind: string): Promise<'sent' | 'faulted'> {
    const mine = this.faults.filter((f) => f.kind === faultKind && f.userId === message.userId && f.remaining > 0);
    const hit =
      mine.find((f) => f.targetId !== null && f.targetId === message.phoneNumberId) ??
      mine.find((f) => f.targetId === null);
    if (hit) {
      hit.remaining -= 1;
      return 'faulted';
    }
    this.sent.push({ ...message, at: new Date(message.at) });
    return 'sent';
  }

  async armFault(a: { userId: number; targetId: number | null; count: number; kind: string }): Promise<number> {
    this.faults = this.faults.filter((f) => !(f.userId === a.userId && f.kind === a.kind && f.targetId === a.targetId));
    if (a.count > 0) this.faults.push({ kind: a.kind, userId: a.userId, targetId: a.targetId, remaining: a.count });
    return a.count;
  }

  async wasSent(userId: number, providerMessageId: string): Promise<boolean> {
    return this.sent.some((m) => m.userId === userId && m.providerMessageId === providerMessageId);
  }

  async outbox(userId: number, limit: number): Promise<SandboxSmsSent[]> {
    return this.sent
      .filter((m) => m.userId === userId)
      .reverse()
      .slice(0, limit)
      .map((m) => ({ ...m, at: new Date(m.at) }));
  }
}
