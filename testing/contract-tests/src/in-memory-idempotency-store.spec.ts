import { InMemoryIdempotencyStore } from '@voiceplane/adapter-fakes';
import { idempotencyStoreContract } from './idempotency-store.contract';

idempotencyStoreContract('in-memory', async () => new InMemoryIdempotencyStore());
