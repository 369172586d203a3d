import {
  appendedTranscript,
  Call,
  CallMinutePrices,
  CallOutcome,
  callCharge,
  callDuration,
  EndedCall,
  extractedVariablesAtEnd,
  postCallPayload,
  shouldSendInboundWebhook,
  shouldSendPostCallWebhook,
  TerminalCallStatus,
} from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { BalanceService } from '../billing';
import { NewOutboxEvent } from '../ports';
import { WebhookDeliveries } from '../webhooks';
import { CallChange, CallChanges, CampaignCallOutcomes, PlacedBy } from './ports';

/**
 * Outbox topic raised by every call end, for the capabilities that react to it: automations bound
 * to the assistant (`call.ended` trigger) and the chat-app permission counters
 * of connected chat-app calls (step 6). Payload: `CallEndedEvent`.
 */
export const CALL_ENDED_TOPIC = 'call.ended';

export interface CallEndedEvent {
  readonly call_id: number;
  readonly user_id: number;
  readonly assistant_id: number;
  readonly direction: Call['direction'];
  readonly channel: Call['channel'];
  readonly status: TerminalCallStatus;
  /** The call reached `in-progress` (a connected call). */
  readonly answered: boolean;
  readonly customer_phone: string;
  readonly sender_id: number | null;
  readonly conversation_id: string | null;
  readonly automation_run_id: string | null;
  /** The `post_call` payload (the automation trigger input). */
  readonly call: Record<string, unknown>;
}

/**
 * What happens when a call ends, inside the transaction that accepts the `ended`
 * event: the final state, the charge, extraction, the `post_call` delivery and the `call.ended` event.
 * The call's own writes are left to the repository that locked it.
 */
export class EndCall {
  constructor(
    private readonly assistants: AssistantRepository,
    private readonly balance: BalanceService,
    private readonly deliveries: WebhookDeliveries,
    private readonly prices: CallMinutePrices,
    /** Campaign calls: the lead's outcome, applied before the payload is built. */
    private readonly campaigns: CampaignCallOutcomes | null = null,
  ) {}

  /**
   * For `CallRepository.update`, which holds `call` locked: charges it, creates its `post_call`
   * delivery and answers the call as it ends at `at`, with its `call.ended` event.
   */
  async finish(call: Call, outcome: CallOutcome, at: Date, now: Date): Promise<CallChange<Call>> {
    // Recording and extraction follow the configuration the call started with.
    const started = call.runtimeConfig.assistant;
    const duration = callDuration(call.answeredAt, at, outcome.duration);
    const charge = callCharge(duration, this.prices[call.channel]);
    if (charge.minutes > 0) {
      const charged = await this.balance.charge({
        userId: call.userId,
        price: charge.amount,
        description: `Call ${call.id} (${charge.minutes} min)`,
        reference: { type: 'call', id: call.id },
        mayGoNegative: true,
      });
      if (!charged.ok) throw new Error(`Call ${call.id} could not be charged: ${charged.error.code}`);
    }
    const changes = {
      status: outcome.status,
      finishedAt: at,
      duration,
      cost: charge.minutes > 0 ? charge.amount : 0,
      recordingUrl: started.record ? (outcome.recordingUrl ?? null) : null,
      transcript: outcome.transcript ? appendedTranscript([], outcome.transcript) : call.transcript,
      extractedVariables: extractedVariablesAtEnd(
        { enabled: started.post_call_evaluation, fieldNames: started.post_call_schema.map((f) => f.name) },
        outcome.extractedVariables,
      ),
      endedReason: outcome.endedReason ?? null,
    } satisfies CallChanges;
    const ended: Call = { ...call, ...changes, updatedAt: now };
    const placedBy = this.campaigns ? await this.campaigns.apply(ended, outcome.status, at, now) : null;
    return { changes, events: [await this.announce(ended, outcome.status, at, placedBy)], at: now, answer: ended };
  }

  /** Creates the `post_call` delivery when the assistant wants one; returns the `call.ended` event. */
  private async announce(
    call: Call,
    status: TerminalCallStatus,
    at: Date,
    placedBy: PlacedBy | null,
  ): Promise<NewOutboxEvent> {
    // Locked: a webhook switched off concurrently either commits first (and no event is created)
    // or waits, and its cancellation then finds this call's delivery pending.
    const assistant = await this.assistants.findOwned(call.userId, call.assistantId, { lock: true });
    const facts: EndedCall = {
      id: call.id,
      assistantId: call.assistantId,
      customerPhone: call.customerPhone,
      assistantPhone: call.assistantPhone,
      duration: call.duration,
      status,
      extractedVariables: call.extractedVariables,
      inputVariables: call.variables,
      transcript: call.transcript,
      recordingUrl: call.recordingUrl,
      createdAt: call.createdAt,
      finishedAt: at,
      lead: placedBy?.lead ?? null,
      campaign: placedBy?.campaign ?? null,
    };
    const payload = postCallPayload(facts, assistant?.includeRecordingInWebhook ?? true);
    if (
      assistant &&
      assistant.webhookUrl !== null &&
      shouldSendPostCallWebhook(
        {
          isWebhookActive: assistant.isWebhookActive,
          webhookUrl: assistant.webhookUrl,
          sendOnlyOnCompleted: assistant.sendWebhookOnlyOnCompleted,
        },
        status,
      )
    ) {
      await this.deliveries.enqueue({
        userId: call.userId,
        eventType: 'post_call',
        targetUrl: assistant.webhookUrl,
        payload,
        source: { type: 'assistant', id: call.assistantId },
        subject: { type: 'call', id: call.id },
      });
    }
    if (
      assistant &&
      assistant.inboundWebhookUrl !== null &&
      shouldSendInboundWebhook(
        {
          inboundWebhookUrl: assistant.inboundWebhookUrl,
          sendOnlyOnCompleted: assistant.sendWebhookOnlyOnCompleted,
        },
        call.direction,
        status,
      )
    ) {
      await this.deliveries.enqueue({
        userId: call.userId,
        eventType: 'post_call',
        targetUrl: assistant.inboundWebhookUrl,
        payload,
        source: { type: 'assistant', id: call.assistantId },
        subject: { type: 'call', id: call.id },
      });
    }
    const event: CallEndedEvent = {
      call_id: call.id,
      user_id: call.userId,
      assistant_id: call.assistantId,
      direction: call.direction,
      channel: call.channel,
      status,
      answered: call.answeredAt !== null,
      customer_phone: call.customerPhone,
      sender_id: call.senderId,
      conversation_id: call.conversationId,
      automation_run_id: call.automationRunId,
      call: payload,
    };
    return { topic: CALL_ENDED_TOPIC, payload: event };
  }
}
