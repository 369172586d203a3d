import { previousSecretExpiry, rotationGraceEnd } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { SigningSecret, SigningSecretRepository } from '../ports';

/** The account's signing secret, and until when the one it replaced still signs (null: no longer). */
export interface SigningSecretView {
  readonly secret: SigningSecret;
  readonly previousExpiresAt: Date | null;
}

/**
 * The account signing secret of webhooks and tool requests. A rotation keeps the previous secret
 * signing for the domain's grace period, so receivers can switch without losing a delivery.
 */
export class SigningSecrets {
  constructor(
    private readonly secrets: SigningSecretRepository,
    private readonly ids: Ids,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /** Every account is given one when it is created: a missing one is a broken account, not a refusal. */
  async current(userId: number): Promise<SigningSecretView> {
    const secret = await this.secrets.get(userId);
    if (!secret) throw new Error('account without a signing secret');
    return { secret, previousExpiresAt: previousSecretExpiry(secret, this.clock.now()) };
  }

  /** Concludes in the rotation's own commit: the one answer carrying the new secret is stored with it. */
  rotate(userId: number): Promise<SigningSecretView> {
    const graceEnd = rotationGraceEnd(this.clock.now());
    return this.uow.transaction(
      async () => ({
        secret: await this.secrets.rotate(userId, `whsec_${this.ids.secretBytes(32)}`, graceEnd),
        previousExpiresAt: graceEnd,
      }),
      { concludes: true },
    );
  }
}
