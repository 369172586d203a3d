import { InMemoryCallRepository, InMemoryChatappCallReportRepository, InMemoryOutbox } from '@voiceplane/adapter-fakes';
import { chatappCallReportsContract } from './chatapp-call-reports.contract';

chatappCallReportsContract('in-memory', async () => {
  const calls = new InMemoryCallRepository(new InMemoryOutbox());
  return { reports: new InMemoryChatappCallReportRepository(calls), calls, userId: 1 };
});
