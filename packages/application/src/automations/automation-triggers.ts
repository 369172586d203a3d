import { JsonObject, Tool, ToolCallResult } from '@voiceplane/domain';
import { CALL_ENDED_TOPIC, CallEndedEvent } from '../calls/end-call';
import { EventConsumer } from '../events/ports';
import { Clock } from '../ports/clock';
import { ToolCallContext, AutomationToolRunner } from '../tools/ports';
import { lastOutput } from './apply-template';
import { AutomationEngine } from './automation-engine';
import { AutomationRepository } from './ports';

export const AUTOMATION_EVENTS_CONSUMER = 'automation-assistant-events';

/**
 * CONTRACT §10.13: every enabled, bound assistant-event automation of the call's assistant runs on
 * its `call.ended`. The bus event id is stored on the run, so a redelivered event starts nothing.
 */
export function assistantEventRuns(automations: AutomationRepository, engine: AutomationEngine): EventConsumer {
  return {
    topicPattern: CALL_ENDED_TOPIC,
    options: { consumer: AUTOMATION_EVENTS_CONSUMER, maxRetries: 5, retryDelayMs: 5_000 },
    handle: async (message) => {
      const event = message.payload as CallEndedEvent;
      const bound = await automations.listBoundToAssistant(event.assistant_id);
      for (const automation of bound.filter((a) => a.userId === event.user_id && a.liveVersionId !== null)) {
        const version = await engine.version(automation.liveVersionId as string);
        if (version === null) continue;
        const input: JsonObject = { event: 'call.ended', assistant_id: event.assistant_id, call: event.call as JsonObject };
        await engine.start(automation, version, { trigger: 'assistant_event', isTest: false, input, eventId: message.id });
      }
    },
  };
}

const DISABLED_CONTENT = JSON.stringify({ error: 'automation_disabled', message: 'Automation is disabled.' });

/** The `type: automation` mid-call tool (CONTRACT §5.7): runs the automation in-process with the AI's arguments. */
export class AutomationToolRuns implements AutomationToolRunner {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly engine: AutomationEngine,
    private readonly clock: Clock,
  ) {}

  async run(tool: Tool, params: Readonly<Record<string, unknown>>, owner: { readonly userId: number }): Promise<ToolCallResult> {
    const startedAt = this.clock.now().getTime();
    const elapsed = () => Math.max(0, this.clock.now().getTime() - startedAt);
    const automation = tool.automationId ? await this.automations.findById(tool.automationId) : null;
    const live = automation && automation.userId === owner.userId && automation.status === 'enabled' && automation.liveVersionId
      ? await this.engine.version(automation.liveVersionId) : null;
    if (automation === null || live === null) {
      return { ok: false, statusCode: null, content: DISABLED_CONTENT, truncated: false, durationMs: elapsed(), error: 'automation_disabled', warnings: [] };
    }
    // The call waits for the answer only: the run is stored after it.
    const run = await this.engine.start(automation, live, { trigger: 'tool', isTest: false, input: params as JsonObject, storeAfterAnswer: true });
    const body = run ? lastOutput(run) : null;
    return { ok: true, statusCode: 200, content: JSON.stringify(body), truncated: false, durationMs: elapsed(), error: null, warnings: [] };
  }
}
