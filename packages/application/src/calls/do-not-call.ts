import { distinctNumbers, DO_NOT_CALL_LIMITS, DO_NOT_CALL_TOOL_REASON, err, ok, Result } from '@voiceplane/domain';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { CONCLUDES, UnitOfWork } from '../ports';
import { DoNotCallEntry, DoNotCallList, NewDoNotCallEntry } from '../ports';
import { CallRepository } from './ports';

export interface DoNotCallPage {
  readonly items: readonly DoNotCallEntry[];
  /** The id the next page starts below; null on the last page. */
  readonly next: number | null;
}

/** The do-not-call routes, and the built-in tool a callee's "don't call me again" runs. */
export class ManageDoNotCall {
  constructor(
    private readonly s: {
      readonly uow: UnitOfWork;
      readonly list: DoNotCallList;
      readonly users: UserRepository;
      readonly calls: CallRepository;
    },
    private readonly clock: Clock,
  ) {}

  /** A number already listed is not an error: it is not counted as added. Over the account's limit nothing is added. */
  async add(userId: number, entries: readonly NewDoNotCallEntry[]): Promise<Result<number, 'list_full'>> {
    const distinct = distinctNumbers(entries);
    return this.s.uow.transaction(async () => {
      // The account's lock orders concurrent adds, so the limit holds.
      await this.s.users.lockBalance(userId);
      const known = await this.s.list.listed(
        userId,
        distinct.map((e) => e.phoneNumber),
      );
      const fresh = distinct.filter((e) => !known.has(e.phoneNumber));
      if (fresh.length === 0) return ok(0);
      if ((await this.s.list.count(userId)) + fresh.length > DO_NOT_CALL_LIMITS.numbersPerAccount)
        return err('list_full' as const);
      return ok(await this.s.list.add(userId, fresh, this.clock.now()));
    }, CONCLUDES);
  }

  /**
   * The customer of a call asked not to be called again (the `do_not_call` built-in tool): their
   * number is listed for the call's account. Added counts 0 when it was listed already.
   */
  async addFromCall(callId: number): Promise<Result<number, 'call_not_found' | 'list_full'>> {
    const call = await this.s.calls.findById(callId);
    if (call === null) return err('call_not_found');
    return this.add(call.userId, [{ phoneNumber: call.customerPhone, reason: DO_NOT_CALL_TOOL_REASON }]);
  }

  async list(
    userId: number,
    filter: { readonly phoneNumber?: string },
    before: number | null,
    perPage: number,
  ): Promise<DoNotCallPage> {
    const rows = await this.s.list.list(userId, filter, before, perPage + 1);
    const items = rows.slice(0, perPage);
    return { items, next: rows.length > perPage ? items[items.length - 1].id : null };
  }

  async remove(userId: number, id: number): Promise<Result<true, 'not_found'>> {
    return (await this.s.list.remove(userId, id)) ? ok(true as const) : err('not_found' as const);
  }
}
