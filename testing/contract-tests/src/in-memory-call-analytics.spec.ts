import { InMemoryCallAnalytics, InMemoryCallRepository, InMemoryOutbox } from '@voiceplane/adapter-fakes';
import { callAnalyticsContract } from './call-analytics.contract';

callAnalyticsContract('in-memory', async () => {
  const calls = new InMemoryCallRepository(new InMemoryOutbox());
  return { analytics: new InMemoryCallAnalytics(calls), calls, users: [1, 2] };
});
