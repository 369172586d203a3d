import { nextSmsStatus } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Page, PageRequest } from '../common';
import { SmsMessage, SmsMessageRepository, SmsStatusReport } from './ports';

/**
 * The SMS log as its owner reads it, and the provider's delivery reports applied to it: a report
 * moves a message forward only (a final status stays, a late `sent` changes nothing).
 */
export class SmsMessages {
  constructor(
    private readonly messages: SmsMessageRepository,
    private readonly clock: Clock,
  ) {}

  /** Null when nothing changed (unknown message, another provider id, or no step forward). */
  applyReport(report: SmsStatusReport): Promise<SmsMessage | null> {
    return this.messages.report(report, (current) => nextSmsStatus(current, report.status), this.clock.now());
  }

  find(userId: number, id: number): Promise<SmsMessage | null> {
    return this.messages.find(userId, id);
  }

  list(userId: number, page: PageRequest): Promise<Page<SmsMessage>> {
    return this.messages.list(userId, page);
  }
}
