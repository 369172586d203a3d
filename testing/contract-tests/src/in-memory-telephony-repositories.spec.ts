import { InMemoryPhoneNumbers } from '@voiceplane/adapter-fakes';
import { telephonyRepositoriesContract } from './telephony-repositories.contract';

telephonyRepositoriesContract('in-memory', async () => {
  const store = new InMemoryPhoneNumbers();
  return { numbers: store.numbers, trunks: store.trunks, users: [1, 2] };
});
