import { STEP_KINDS } from '@voiceplane/domain';
import { pureStepHandlers } from './pure-steps';
import { StepHandlers } from './step-handler';

describe('one handler per step kind', () => {
  it('a handler map missing a kind does not compile', () => {
    // @ts-expect-error: the acting kinds (http.request, table.lookup, …) have no handler here.
    const incomplete: StepHandlers = { ...pureStepHandlers() };
    expect(Object.keys(incomplete).length).toBeLessThan(STEP_KINDS.length);
  });

  it('pure steps run the domain rule for their kind', async () => {
    const handlers = pureStepHandlers();
    const context = { trigger: { phone: '+14155551234' }, steps: {} };
    const actor = { userId: 1, isTest: false, runId: 'run_1', stepName: 's' };
    await expect(
      handlers['validate.phone'].execute(
        { name: 's', kind: 'validate.phone', config: { field: '{{trigger.phone}}' } },
        context,
        actor,
      ),
    ).resolves.toEqual({ kind: 'ok', output: { phone: '+14155551234' } });
    await expect(
      handlers.delay.execute({ name: 'w', kind: 'delay', config: { minutes: 5 } }, context, actor),
    ).resolves.toEqual({ kind: 'paused_at_delay' });
  });
});
