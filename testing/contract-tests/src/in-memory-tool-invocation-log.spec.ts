import { InMemoryToolInvocationLog } from '@voiceplane/adapter-fakes';
import { toolInvocationLogContract } from './tool-invocation-log.contract';

toolInvocationLogContract('in-memory', async () => ({ log: new InMemoryToolInvocationLog(), userId: 1 }));
