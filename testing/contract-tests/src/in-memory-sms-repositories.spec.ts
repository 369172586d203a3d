import { InMemorySandboxSmsState, InMemorySmsMessageRepository } from '@voiceplane/adapter-fakes';
import { smsRepositoriesContract } from './sms-repositories.contract';

smsRepositoriesContract('in-memory', async () => ({
  messages: new InMemorySmsMessageRepository(),
  sandbox: new InMemorySandboxSmsState(),
  users: [1, 2],
}));
