import {
  FakeStore,
  InMemoryCallPermissionRepository,
  InMemoryDoNotCallList,
  InMemoryRateLimitStore,
  RecordingLogger,
  RecordingVoiceRuntime,
  SAMPLE_CATALOG,
} from '@voiceplane/adapter-fakes';
import {
  acceptCallPermission,
  AssistantConfig,
  Conversation,
  DEFAULT_CALL_MINUTE_PRICES,
  draftAssistant,
  err,
  MessageTemplate,
  newConversation,
  ok,
  Sender,
} from '@voiceplane/domain';
import { BalanceService } from '../src/billing/balance-service';
import { WebhookDeliveries } from '../src/webhooks/webhook-deliveries';
import { CallConfigurations } from '../src/calls/call-configurations';
import { EndCall } from '../src/calls/end-call';
import { RecordCallEvent } from '../src/calls/record-call-event';
import { askCounterResetConsumer } from '../src/call-permission/ask-counter-reset';
import { chatappCallDispatchConsumer } from '../src/call-permission/chatapp-call-dispatch';
import { CHATAPP_CALL_QUEUED_TOPIC, PlaceChatappCall } from '../src/call-permission/place-chatapp-call';
import { VoiceFacts } from '../src/call-permission/voice-facts';
import { RateLimiter } from '../src/ratelimit/rate-limiter';
import { ReadCallPermission } from '../src/call-permission/read-call-permission';
import { RequestCallPermission } from '../src/call-permission/request-call-permission';
import { PermissionRequestSender, RequestSendFailed } from '../src/call-permission/ports';

export const START = new Date('2030-06-01T10:00:00.000Z');
export const PHONE = '+4915112345678';

/** A user with a chat-app sender, its assistant and a conversation with one customer, and every chat-app voice use case over fakes. */
export function voiceScene() {
  const store = new FakeStore(START);
  const permissions = new InMemoryCallPermissionRepository();
  const senders = new Map<number, Sender>();
  const conversations = new Map<string, Conversation>();
  const templates: MessageTemplate[] = [];
  const lookups = {
    senders: {
      findOwned: async (userId: number, id: number) => (senders.get(id)?.userId === userId ? senders.get(id)! : null),
    },
    conversations: {
      find: async (senderId: number, phone: string) => conversations.get(`${senderId}:${phone}`) ?? null,
    },
    templates: {
      list: async (senderId: number) => templates.filter((t) => t.senderId === senderId && t.status === 'approved'),
    },
  };
  const rateLimiter = new RateLimiter(new InMemoryRateLimitStore(), store.clock);
  const facts = new VoiceFacts(
    {
      users: store.users,
      assistants: store.assistants,
      templates: lookups.templates,
      conversations: lookups.conversations,
      permissions,
      calls: store.calls,
    },
    rateLimiter,
    DEFAULT_CALL_MINUTE_PRICES,
  );
  const configurations = new CallConfigurations(store.tools, store.catalog, store.assistants);
  const place = new PlaceChatappCall(
    { uow: store.uow, senders: lookups.senders, calls: store.calls, doNotCall: new InMemoryDoNotCallList() },
    facts,
    configurations,
    { outbox: store.outbox, scheduler: store.jobs },
    store.clock,
  );
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  const events = new RecordCallEvent(
    store.calls,
    new EndCall(store.assistants, new BalanceService(store.ledger), deliveries, DEFAULT_CALL_MINUTE_PRICES),
    store.clock,
  );
  const runtime = new RecordingVoiceRuntime(null);
  const seen = new Set<string>();
  const processed = {
    record: async (consumer: string, id: string) => !seen.has(`${consumer}:${id}`) && !!seen.add(`${consumer}:${id}`),
  };
  const dispatch = chatappCallDispatchConsumer({
    uow: store.uow,
    processed,
    calls: store.calls,
    assistants: store.assistants,
    runtime,
    events,
    scheduler: store.jobs,
    clock: store.clock,
    log: new RecordingLogger(),
  });
  const reset = askCounterResetConsumer(store.uow, processed, permissions);
  const requestSender = new RecordingRequestSender(conversations);
  const reads = new ReadCallPermission(lookups.senders, facts, store.clock);
  const requests = new RequestCallPermission(
    store.uow,
    lookups.senders,
    permissions,
    facts,
    requestSender,
    store.clock,
    reads,
  );
  const template = (over: Partial<MessageTemplate> = {}): MessageTemplate => {
    const t: MessageTemplate = {
      id: templates.length + 34,
      senderId: 12,
      name: 'call_permission',
      language: 'en',
      category: 'voice_call_request',
      status: 'approved',
      bodyText: 'May we call you?',
      footerText: null,
      variables: [],
      rejectionReason: null,
      createdAt: START,
      updatedAt: START,
      ...over,
    };
    templates.push(t);
    return t;
  };
  /** The customer wrote at `at` (opens the customer window). */
  const customerWrote = (at: Date) => {
    const key = `12:${PHONE}`;
    const c = conversations.get(key)!;
    conversations.set(key, { ...c, window: { ...c.window, lastCustomerMessageAt: at } });
  };

  async function scene(
    options: {
      balance?: number;
      sender?: Partial<Sender>;
      assistant?: Partial<AssistantConfig> | null;
      permission?: 'granted' | 'none';
    } = {},
  ) {
    const user = await store.account({ balance: options.balance ?? 5 });
    const assistant =
      options.assistant === null
        ? null
        : await store.assistants.create(user.id, {
            ...draftAssistant({ name: 'Concierge' }, SAMPLE_CATALOG),
            ringingTime: 25,
            maxDuration: 240,
            ...options.assistant,
          });
    if (assistant === 'inbound_number_taken') throw new Error('taken');
    const sender: Sender = {
      id: 12,
      userId: user.id,
      phoneNumber: '+4930123456',
      displayName: 'Acme',
      status: 'online',
      qualityRating: 'GREEN',
      messagingLimit: 1000,
      countryCode: 'DE',
      assistantId: assistant?.id ?? null,
      callingEnabled: true,
      statusWebhookUrl: null,
      provider: 'sandbox',
      createdAt: START,
      updatedAt: START,
      ...options.sender,
    };
    senders.set(sender.id, sender);
    conversations.set(
      `${sender.id}:${PHONE}`,
      newConversation(
        { id: 880, uuid: 'conv-uuid', userId: user.id, senderId: sender.id, customerPhone: PHONE },
        START,
      ),
    );
    if ((options.permission ?? 'granted') === 'granted') {
      await permissions.update(sender.id, PHONE, async (p) =>
        ok({ next: acceptCallPermission(p, true, START).next, answer: null }),
      );
    }
    return { user, sender, assistant };
  }
  const call = (userId: number, over: { senderId?: number; phone?: string; variables?: Record<string, string> } = {}) =>
    place.execute({
      userId,
      senderId: over.senderId ?? 12,
      recipientPhone: over.phone ?? PHONE,
      variables: over.variables ?? {},
    });
  const queued = () => store.outbox.events(CHATAPP_CALL_QUEUED_TOPIC);
  const message = (topic: string, payload: unknown, id: string) => ({
    id,
    topic,
    payload,
    occurredAt: START.toISOString(),
  });
  return {
    store,
    permissions,
    runtime,
    events,
    dispatch,
    reset,
    scene,
    call,
    queued,
    message,
    requests,
    reads,
    requestSender,
    template,
    customerWrote,
    rateLimiter,
  };
}

/** The chat app as the request route sees it: records each request template, or refuses the next ones. */
export class RecordingRequestSender implements PermissionRequestSender {
  readonly sent: Array<{
    readonly templateId: number;
    readonly customerPhone: string;
    readonly recipientName: string | null;
  }> = [];
  private refusals: string[] = [];

  constructor(private readonly conversations: Map<string, Conversation>) {}

  refuseNext(reason: string): void {
    this.refusals.push(reason);
  }

  async send(r: Parameters<PermissionRequestSender['send']>[0]) {
    const reason = this.refusals.shift();
    if (reason !== undefined) return err<RequestSendFailed>({ code: 'send_failed', reason });
    this.sent.push({ templateId: r.template.id, customerPhone: r.customerPhone, recipientName: r.recipientName });
    return ok({ conversationUuid: this.conversations.get(`${r.sender.id}:${r.customerPhone}`)?.uuid ?? 'new-uuid' });
  }
}
