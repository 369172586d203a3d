import { InMemoryMediaStore } from '@voiceplane/adapter-fakes';
import { mediaStoreContract } from './media-store.contract';

mediaStoreContract('in-memory', async () => new InMemoryMediaStore());
