import { InMemoryDoNotCallList } from '@voiceplane/adapter-fakes';
import { doNotCallListContract } from './do-not-call-list.contract';

doNotCallListContract('in-memory', async () => ({ list: new InMemoryDoNotCallList(), users: [1, 2] }));
