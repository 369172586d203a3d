import { InMemoryAutomationRepository, InMemoryAutomationRunRepository } from '@voiceplane/adapter-fakes';
import { automationRunsContract } from './automation-runs.contract';

let users = 0;
automationRunsContract('in-memory', async () => {
  const automations = new InMemoryAutomationRepository();
  return { automations, runs: new InMemoryAutomationRunRepository(automations), newUser: async () => ++users };
});
