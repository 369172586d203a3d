import { Clock, SigningSecret, SigningSecretRepository } from '@voiceplane/application';
import { copy } from './copy';

/** One signing secret per user; `createdAt` comes from `clock`, as the database's `now()`. */
export class InMemorySigningSecretRepository implements SigningSecretRepository {
  private readonly secrets = new Map<number, SigningSecret>();

  constructor(private readonly clock: Clock) {}

  async create(userId: number, secret: string): Promise<void> {
    if (this.secrets.has(userId)) throw new Error(`User ${userId} already has a signing secret.`);
    this.secrets.set(userId, { secret, createdAt: this.clock.now(), previousSecret: null, previousExpiresAt: null });
  }

  async get(userId: number): Promise<SigningSecret | null> {
    const stored = this.secrets.get(userId);
    return stored ? copy(stored) : null;
  }

  async rotate(userId: number, secret: string, previousExpiresAt: Date): Promise<SigningSecret> {
    const stored = this.secrets.get(userId);
    if (!stored) throw new Error(`User ${userId} has no signing secret to rotate.`);
    const rotated = {
      secret,
      createdAt: this.clock.now(),
      previousSecret: stored.secret,
      previousExpiresAt: new Date(previousExpiresAt),
    };
    this.secrets.set(userId, rotated);
    return copy(rotated);
  }
}
