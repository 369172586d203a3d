import { chainAttempt, JsonObject, PinnedVersion, Tool, ToolCallResult, TriggerEvent } from '@voiceplane/domain';
import { CONVERSATION_ENDED_TOPIC } from '../conversations';
import { CALL_ENDED_TOPIC, CallEndedEvent } from '../calls';
import { EventConsumer } from '../events';
import { Clock } from '../ports';
import { AutomationToolRunner } from '../tools';
import { lastOutput } from './apply-template';
import { AutomationEngine } from './automation-engine';
import { AutomationRepository, AutomationRunRepository } from './ports';

export const AUTOMATION_EVENTS_CONSUMER = 'automation-assistant-events';

/** The unique key of a run started by a call's end: one run per call and automation, however often the end is delivered. */
export const callEndedKey = (callId: number): string => `call.ended:${callId}`;

/**
 * Every enabled, bound assistant-event automation of the call's assistant runs on
 * its `call.ended`, once per call (the key is unique per automation in the database), and never on
 * a call its own run placed unless its chain rule allows another attempt.
 */
export function assistantEventRuns(
  automations: AutomationRepository,
  runs: AutomationRunRepository,
  engine: AutomationEngine,
): EventConsumer {
  return {
    topicPattern: CALL_ENDED_TOPIC,
    options: { consumer: AUTOMATION_EVENTS_CONSUMER, maxRetries: 5, retryDelayMs: 5_000 },
    handle: async (message) => {
      const event = message.payload as CallEndedEvent;
      const bound = await automations.listBoundToAssistant(event.assistant_id);
      const placedBy = event.automation_run_id ? await runs.findAnywhere(event.automation_run_id) : null;
      for (const automation of bound.filter((a) => a.userId === event.user_id && a.liveVersionId !== null)) {
        const version = await engine.version(automation.liveVersionId as string);
        if (version === null || !listensTo(version, 'call.ended')) continue;
        const own = placedBy !== null && placedBy.automationId === automation.id ? placedBy.run.attempt : null;
        const attempt = chainAttempt(version.definition.trigger, own);
        if (attempt === null) continue;
        const call: JsonObject = { ...(event.call as JsonObject), automation_run_id: event.automation_run_id ?? null };
        const input: JsonObject = { event: 'call.ended', assistant_id: event.assistant_id, call };
        await engine.start(automation, version, {
          trigger: 'assistant_event',
          isTest: false,
          input,
          eventId: callEndedKey(event.call_id),
          attempt,
        });
      }
    },
  };
}

/** The unique key of a run started by a conversation's end: a conversation that reopens and ends again ends anew. */
export const conversationEndedKey = (conversationId: number, endedAt: string): string =>
  `conversation.ended:${conversationId}:${endedAt}`;

/** What the conversations capability raises when a chat conversation ends (`CONVERSATION_ENDED_TOPIC`). */
interface ConversationEndedEvent {
  readonly user_id: number;
  readonly assistant_id: number;
  /** The `conversation_ended` webhook payload. */
  readonly conversation: { readonly id: number; readonly ended_at: string } & Record<string, unknown>;
}

/**
 * `conversation.ended` as a trigger: every enabled, bound assistant-event automation of the
 * conversation's assistant whose trigger is that event runs once per end, with input
 * `{"event":"conversation.ended","assistant_id":…,"conversation":<conversation_ended payload>}`.
 */
export function conversationEventRuns(automations: AutomationRepository, engine: AutomationEngine): EventConsumer {
  return {
    topicPattern: CONVERSATION_ENDED_TOPIC,
    options: { consumer: AUTOMATION_CONVERSATION_EVENTS_CONSUMER, maxRetries: 5, retryDelayMs: 5_000 },
    handle: async (message) => {
      const event = message.payload as ConversationEndedEvent;
      const bound = await automations.listBoundToAssistant(event.assistant_id);
      for (const automation of bound.filter((a) => a.userId === event.user_id && a.liveVersionId !== null)) {
        const version = await engine.version(automation.liveVersionId as string);
        if (version === null || !listensTo(version, 'conversation.ended')) continue;
        const input: JsonObject = {
          event: 'conversation.ended',
          assistant_id: event.assistant_id,
          conversation: event.conversation as JsonObject,
        };
        const eventId = conversationEndedKey(event.conversation.id, event.conversation.ended_at);
        await engine.start(automation, version, { trigger: 'assistant_event', isTest: false, input, eventId });
      }
    },
  };
}

export const AUTOMATION_CONVERSATION_EVENTS_CONSUMER = 'automation-conversation-events';

const listensTo = (version: PinnedVersion, event: TriggerEvent): boolean =>
  version.definition.trigger.kind === 'trigger.assistant_event' && version.definition.trigger.event === event;

const DISABLED_CONTENT = JSON.stringify({ error: 'automation_disabled', message: 'Automation is disabled.' });

/** The `type: automation` mid-call tool: runs the automation in-process with the AI's arguments. */
export class AutomationToolRuns implements AutomationToolRunner {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly engine: AutomationEngine,
    private readonly clock: Clock,
  ) {}

  async run(
    tool: Tool,
    params: Readonly<Record<string, unknown>>,
    owner: { readonly userId: number },
  ): Promise<ToolCallResult> {
    const startedAt = this.clock.now().getTime();
    const elapsed = () => Math.max(0, this.clock.now().getTime() - startedAt);
    const automation = tool.automationId ? await this.automations.findById(tool.automationId) : null;
    const live =
      automation && automation.userId === owner.userId && automation.status === 'enabled' && automation.liveVersionId
        ? await this.engine.version(automation.liveVersionId)
        : null;
    if (automation === null || live === null) {
      return {
        ok: false,
        statusCode: null,
        content: DISABLED_CONTENT,
        truncated: false,
        durationMs: elapsed(),
        error: 'automation_disabled',
        warnings: [],
      };
    }
    // The call waits for the answer only: the run is stored after it.
    const run = await this.engine.start(automation, live, {
      trigger: 'tool',
      isTest: false,
      input: params as JsonObject,
      storeAfterAnswer: true,
    });
    const body = run ? lastOutput(run) : null;
    return {
      ok: true,
      statusCode: 200,
      content: JSON.stringify(body),
      truncated: false,
      durationMs: elapsed(),
      error: null,
      warnings: [],
    };
  }
}
