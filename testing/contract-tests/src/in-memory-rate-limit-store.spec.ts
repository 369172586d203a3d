import { InMemoryRateLimitStore } from '@voiceplane/adapter-fakes';
import { rateLimitStoreContract } from './rate-limit-store.contract';

rateLimitStoreContract('in-memory', async () => new InMemoryRateLimitStore());
