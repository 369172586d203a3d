import { DEFAULT_PLAN, Plan, User, withPlanChanges } from '@voiceplane/domain';
import { InMemoryAssistantRepository } from './assistants';
import { InMemoryCallRepository } from './calls';
import { InMemoryCatalogRepository, SAMPLE_CATALOG } from './catalog';
import { ManualClock } from './clock';
import { SequentialIds } from './ids';
import { InMemoryJobStore } from './job-store';
import { InMemoryLedgerRepository } from './ledger';
import { InMemoryOutbox } from './outbox';
import { InMemorySigningSecretRepository } from './signing-secrets';
import { InMemoryToolRepository } from './tools';
import { InMemoryUnitOfWork } from './unit-of-work';
import { InMemoryUserRepository } from './users';
import { InMemoryWebhookDeliveryRepository } from './webhook-deliveries';

/**
 * Every in-memory store a use case test needs, sharing one manual clock, one id sequence and one
 * outbox, as the real ones share the database. Tests build their use cases from its parts.
 */
export class FakeStore {
  readonly clock: ManualClock;
  readonly ids = new SequentialIds();
  readonly uow = new InMemoryUnitOfWork();
  readonly outbox = new InMemoryOutbox();
  readonly jobs = new InMemoryJobStore();
  readonly users: InMemoryUserRepository;
  readonly ledger: InMemoryLedgerRepository;
  readonly secrets: InMemorySigningSecretRepository;
  readonly tools: InMemoryToolRepository;
  readonly assistants: InMemoryAssistantRepository;
  readonly catalog = new InMemoryCatalogRepository(SAMPLE_CATALOG);
  readonly calls: InMemoryCallRepository;
  readonly deliveries: InMemoryWebhookDeliveryRepository;

  constructor(start: Date) {
    this.clock = new ManualClock(start);
    this.users = new InMemoryUserRepository(this.clock);
    this.ledger = new InMemoryLedgerRepository(this.users, this.clock);
    this.secrets = new InMemorySigningSecretRepository(this.clock);
    this.tools = new InMemoryToolRepository(this.clock);
    this.assistants = new InMemoryAssistantRepository(this.tools, this.clock, this.outbox);
    this.calls = new InMemoryCallRepository(this.outbox);
    this.deliveries = new InMemoryWebhookDeliveryRepository(this.secrets, this.outbox, this.jobs);
  }

  /** An account with this balance and plan, and a signing secret, as account creation leaves it. */
  async account(options: { balance?: number; plan?: Partial<Plan> } = {}): Promise<User> {
    const created = await this.users.create({
      name: 'Ada',
      email: `user${this.ids.token('', 6)}@example.test`,
      passwordHash: null,
      plan: withPlanChanges(DEFAULT_PLAN, options.plan ?? {}),
    });
    if (!created) throw new Error('FakeStore: e-mail taken');
    this.users.writeBalance(created.id, options.balance ?? 0);
    await this.secrets.create(created.id, `whsec_${this.ids.secretBytes(24)}`);
    return (await this.users.findById(created.id))!;
  }
}
