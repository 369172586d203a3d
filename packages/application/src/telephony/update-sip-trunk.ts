import {
  err,
  mergeSipTrunkChanges,
  ok,
  reprovisionPlan,
  ReprovisionPlan,
  Result,
  SipTrunkChanges,
  SipTrunkSettings,
} from '@voiceplane/domain';
import { inboundSpec, outboundSpec, ProvisioningAttempt } from './provisioning-attempt';
import { CleanupTask, StoredSipTrunk } from './repositories';
import { SipTrunkWriteDeps, SipTrunkWriteError } from './create-sip-trunk';
import { failureText } from './failure-text';

export interface UpdateSipTrunkInput {
  readonly userId: number;
  readonly id: number;
  /** The sent fields, or `malformed` when the transport refused their shape (reported after the 404 check). */
  readonly changes: Result<SipTrunkChanges, 'malformed'>;
  readonly dryRun: boolean;
}

export interface UpdatedSipTrunk {
  /** As stored now — or, for a dry run, as it would be stored (old provider ids). */
  readonly trunk: StoredSipTrunk;
  readonly reprovision: ReprovisionPlan;
}

class DuplicateOnCommit extends Error {}
class ChangedMeanwhile extends Error {}

const settingsOf = (t: StoredSipTrunk, sipPassword: string): SipTrunkSettings => ({
  phoneNumber: t.phoneNumber,
  nickname: t.nickname,
  sipUsername: t.sipUsername,
  sipPassword,
  sipAddress: t.sipAddress,
  sipCallingFormat: t.sipCallingFormat,
  inboundAuthorizationType: t.inboundAuthorizationType,
  allowedInboundIps: t.allowedInboundIps,
  outboundProxy: t.outboundProxy,
  countryCode: t.countryCode,
});

/**
 * 404 → 422 → 409 → change detection → dry run or make-before-break:
 * 1. create the new provider trunk(s) with the merged configuration;
 * 2. move the inbound route onto the new inbound trunk;
 * 3. store the new values and ids in one transaction (with the retirement of the old trunks);
 * 4. delete the old trunks — failures are left to the clean-up job, the answer is still 200.
 * A failure in 1–3 takes 1–2 back and leaves the stored trunk exactly as it was.
 */
export class UpdateSipTrunk {
  constructor(private readonly d: SipTrunkWriteDeps) {}

  async execute(input: UpdateSipTrunkInput): Promise<Result<UpdatedSipTrunk, SipTrunkWriteError>> {
    const stored = await this.d.trunks.find(input.userId, input.id);
    if (!stored) return err({ code: 'not_found' });
    if (!input.changes.ok) return err({ code: 'malformed' });

    const current = settingsOf(stored, await this.d.cipher.decrypt(stored.sipPasswordCipher));
    const merged = mergeSipTrunkChanges(current, input.changes.value);
    if (!merged.ok) return err({ code: 'invalid', problems: merged.error });
    const { settings, changed } = merged.value;
    if (await this.d.trunks.hasDuplicate(input.userId, settings, stored.id)) return err({ code: 'duplicate' });

    const plan = reprovisionPlan(changed);
    const { sipPassword, ...visible } = settings;
    const next: StoredSipTrunk = {
      ...stored,
      ...visible,
      updatedAt: changed.length > 0 ? this.d.clock.now() : stored.updatedAt,
    };
    if (input.dryRun || changed.length === 0) return ok({ trunk: next, reprovision: plan });

    const owner = { accountId: input.userId, phoneNumberId: stored.id };
    const attempt = new ProvisioningAttempt(this.d.provisioner, this.d.cleanup);
    let saved: StoredSipTrunk;
    let retiring: CleanupTask[];
    try {
      const sipPasswordCipher = changed.includes('sipPassword')
        ? await this.d.cipher.encrypt(sipPassword)
        : stored.sipPasswordCipher;
      const inboundTrunkId = plan.inbound
        ? await attempt.createInboundTrunk(inboundSpec(owner, settings))
        : stored.inboundTrunkId;
      const outboundTrunkId = plan.outbound
        ? await attempt.createOutboundTrunk(outboundSpec(owner, settings))
        : stored.outboundTrunkId;
      if (plan.inbound) await attempt.moveRoute(stored.inboundRouteId, inboundTrunkId, stored.inboundTrunkId);
      [saved, retiring] = await this.d.uow.transaction(async () => {
        await this.d.trunks.lockAccount(input.userId);
        if (await this.d.trunks.hasDuplicate(input.userId, settings, stored.id)) throw new DuplicateOnCommit();
        const row = await this.d.trunks.update(
          { ...next, sipPasswordCipher, inboundTrunkId, outboundTrunkId },
          stored.updatedAt,
        );
        if (!row) throw new ChangedMeanwhile('The SIP trunk changed during the update.');
        const old = [plan.inbound && stored.inboundTrunkId, plan.outbound && stored.outboundTrunkId].filter(
          (t): t is string => !!t,
        );
        // Old trunks may still carry established calls: they are retired, not cut.
        const tasks = await this.d.cleanup.lease(
          old.map((t) => ({ action: 'delete_trunk' as const, resourceId: t, waitForCalls: true })),
        );
        return [row, tasks] as const;
      });
    } catch (e) {
      await attempt
        .undo()
        .catch((undoError) =>
          this.d.log.error(
            { phoneNumberId: stored.id, error: failureText(undoError) },
            'SIP trunk update: undo failed',
          ),
        );
      if (e instanceof DuplicateOnCommit) return err({ code: 'duplicate' });
      this.d.log.error(
        { userId: input.userId, phoneNumberId: stored.id, error: failureText(e) },
        'SIP trunk update failed; provider changes undone',
      );
      return err({ code: 'provisioning_failed' });
    }
    await this.d.cleanup.run(retiring);
    return ok({ trunk: saved, reprovision: plan });
  }
}
