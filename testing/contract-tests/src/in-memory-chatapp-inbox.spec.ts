import { InMemoryChatappInbox } from '@voiceplane/adapter-fakes';
import { chatappInboxContract } from './chatapp-inbox.contract';

chatappInboxContract('in-memory', async () => new InMemoryChatappInbox());
