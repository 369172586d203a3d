import {
  FakeStore,
  InMemoryCallPermissionRepository,
  InMemoryChatappMessageRepository,
  InMemoryConversationRepository,
  InMemoryInboundMediaRepository,
  InMemoryMediaStore,
  InMemorySandboxChatappState,
  InMemorySendReservationRepository,
  InMemorySenderRepository,
  InMemoryTemplateRepository,
  InMemoryVoiceWebhookSettingRepository,
  RecordingLogger,
  SAMPLE_CATALOG,
  ScriptedHttpClient,
} from '@voiceplane/adapter-fakes';
import { SandboxChatappProvider, SandboxReplyGenerator, SANDBOX_AI_REPLY } from '@voiceplane/adapter-sandbox';
import { DEFAULT_CHATAPP_PRICES, draftAssistant, err, ok } from '@voiceplane/domain';
import { BalanceService } from '../billing';
import { WebhookDeliveries } from '../webhooks';
import { SecretCipher } from '../common';
import { CONVERSATION_ENDED_TOPIC, EndInactiveConversation } from '../conversations';
import { CONVERSATION_INACTIVITY_JOB, InactivitySchedule, inactivityJobKey } from '../conversations';
import { ToggleAi } from '../conversations';
import { AnswerCallPermission } from '../call-permission';
import { VoiceWebhook } from '../call-permission';
import { AiReplies } from './ai-reply';
import { ApplyDeliveryStatus } from './apply-delivery-status';
import { ChatappInbound } from './chatapp-inbound';
import { INBOUND_MEDIA_JOB, InboundMediaDownloads } from './inbound-media';
import { SenderConnection } from './sender-connection';
import { OutboundSends } from './outbound-send';
import { ProviderSenders } from './provider-senders';
import { ReceiveCustomerMessage } from './receive-customer-message';
import { SendTemplateMessage } from './send-template-message';
import { SandboxChatappControls } from './sandbox-chatapp-controls';
import { ChatappMessageQueries } from './chatapp-message-queries';
import { ReplyGenerator } from '../conversation-policy';
import { ConversationBrain } from '../conversation-policy';
import { CallConfigurations } from '../calls';
import { InvokeToolForConversation } from '../tools';
import { ToolGateway } from '../tools';

const START = new Date('2030-05-01T12:00:00.000Z');
const CUSTOMER = '+14155551234';
const MINUTE = 60_000;

/** The chat-app use cases on the in-memory fakes with the sandbox chat app and a manual clock. */
function setup(generator: ReplyGenerator = new SandboxReplyGenerator()) {
  const store = new FakeStore(START);
  const log = new RecordingLogger();
  const senders = new InMemorySenderRepository();
  const templates = new InMemoryTemplateRepository(
    async (id) =>
      (await senders.list(1, 'all')).concat(await senders.list(2, 'all')).find((s) => s.id === id)?.userId ?? null,
  );
  const messages = new InMemoryChatappMessageRepository();
  const conversations = new InMemoryConversationRepository(messages);
  const sandbox = new InMemorySandboxChatappState();
  const provider = new SandboxChatappProvider(sandbox, store.ids, () => store.clock.now());
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  const cipher = new SecretCipher(async () => 'k'.repeat(32));
  const inactivity = new InactivitySchedule(store.jobs, store.assistants);
  const outbound = new OutboundSends(
    {
      uow: store.uow,
      users: store.users,
      conversations,
      messages,
      reservations: new InMemorySendReservationRepository(conversations),
      outbox: store.outbox,
    },
    { balance: new BalanceService(store.ledger), providerSenders: new ProviderSenders(senders, cipher), inactivity },
    store.ids,
    store.clock,
  );
  const running = {
    gateway: new ToolGateway(new ScriptedHttpClient(), store.secrets, store.clock),
    automations: null,
    clock: store.clock,
    settings: { userAgent: 'voiceplane/test', policy: { requireHttps: false, allowPrivate: true } },
  };
  const replies = new AiReplies(
    { assistants: store.assistants, conversations, messages },
    { outbound, provider, prices: DEFAULT_CHATAPP_PRICES },
    {
      brain: new ConversationBrain(generator, store.catalog, store.clock, log),
      configurations: new CallConfigurations(store.tools, store.catalog),
      tools: new InvokeToolForConversation(store.tools, running, store.ids, { log, invocations: null }),
      repliesOn: true,
    },
    store.clock,
    log,
  );
  const http = new ScriptedHttpClient();
  const mediaStore = new InMemoryMediaStore();
  const media = new InboundMediaDownloads(
    { media: new InMemoryInboundMediaRepository(messages), store: mediaStore, jobs: store.jobs },
    { provider, senders, providerSenders: new ProviderSenders(senders, cipher), http },
    'https://vp.example',
    store.clock,
    log,
  );
  const receive = new ReceiveCustomerMessage(
    { uow: store.uow, conversations, messages, outbox: store.outbox },
    { inactivity, replies, media },
    store.ids,
    store.clock,
  );
  const deliveryStatus = new ApplyDeliveryStatus(
    { messages, senders, conversations },
    { deliveries, outbox: store.outbox },
    store.clock,
  );
  const sendTemplate = new SendTemplateMessage(
    { senders, templates, users: store.users },
    { outbound, provider, prices: DEFAULT_CHATAPP_PRICES },
    store.clock,
  );
  const permissions = new InMemoryCallPermissionRepository();
  const voiceWebhook = new VoiceWebhook(
    store.uow,
    new InMemoryVoiceWebhookSettingRepository(),
    deliveries,
    store.clock,
  );
  const permissionAnswers = new AnswerCallPermission(store.uow, permissions, voiceWebhook, store.clock);
  const connection = new SenderConnection(senders, new ProviderSenders(senders, cipher), provider, store.clock, log);
  const inbound = new ChatappInbound(
    { senders, templates, messages, conversations },
    { customerMessages: receive, deliveryStatus, permissionAnswers, connection },
    store.clock,
    log,
  );
  const ending = new EndInactiveConversation(
    store.uow,
    { conversations, senders, assistants: store.assistants },
    { schedule: inactivity, deliveries, outbox: store.outbox },
    { generator, catalog: store.catalog, log },
    store.clock,
  );
  const toggle = new ToggleAi(store.uow, conversations, store.clock);

  const sender = async (userId: number, assistantId: number | null = null) =>
    (await senders.create({
      userId,
      phoneNumber: `+49151${String(userId).padStart(8, '0')}`,
      displayName: 'Acme',
      status: 'online',
      qualityRating: 'GREEN',
      messagingLimit: 1000,
      countryCode: 'DE',
      assistantId,
      callingEnabled: false,
      statusWebhookUrl: null,
      provider: 'sandbox',
      providerSenderRef: `pn-${userId}`,
      providerAccountRef: `waba-${userId}`,
      sealedCredentials: null,
      now: START,
    }))!;
  const assistant = async (userId: number, over: Record<string, unknown> = {}) => {
    const saved = await store.assistants.create(userId, {
      ...draftAssistant({ name: 'Support' }, SAMPLE_CATALOG),
      ...over,
    });
    if (saved === 'inbound_number_taken') throw new Error('taken');
    await store.assistants.update(userId, saved.id, async () => ok({ write: { kind: 'status', status: 'active' } }));
    return saved.id;
  };
  return {
    permissions,
    store,
    log,
    senders,
    templates,
    messages,
    conversations,
    sandbox,
    sendTemplate,
    inbound,
    ending,
    toggle,
    receive,
    deliveryStatus,
    sender,
    assistant,
    http,
    media,
    mediaStore,
  };
}

describe('inbound media: voiceplane keeps its own copy', () => {
  it('downloads at once; a failure keeps the message with media_error and the job retries it; only the owner opens it', async () => {
    const { store, receive, sender, http, media, conversations, log } = setup();
    const user = await store.account();
    const s = await sender(user.id);
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0x00, 0x10]);
    http.answer({ statusCode: 200, headers: { 'content-type': 'image/jpeg; charset=binary' }, bytes });
    const image = await receive.execute({
      sender: s,
      customerPhone: CUSTOMER,
      customerName: null,
      text: null,
      providerMessageId: null,
      media: {
        source: { kind: 'url', ref: 'https://cdn.example.com/p.jpg' },
        mediaType: 'image',
        caption: 'My parcel',
      },
    });
    expect(http.requests[0]).toEqual(
      expect.objectContaining({
        method: 'GET',
        url: 'https://cdn.example.com/p.jpg',
        timeoutMs: 15_000,
        maxResponseBytes: 16 * 1024 * 1024,
        keepBytes: true,
      }),
    );
    const [stored] = await conversations.recentMessages(image.conversation.id, 10);
    expect(stored).toEqual(
      expect.objectContaining({
        mediaUrl: expect.stringMatching(/^https:\/\/vp\.example\/api\/user\/chatapp\/media\/med_[A-Za-z0-9]{22}$/),
        mediaError: null,
        body: 'My parcel',
      }),
    );
    const id = stored.mediaUrl!.split('/').pop()!;
    const opened = await media.open(user.id, id);
    expect(opened).toEqual(expect.objectContaining({ contentType: 'image/jpeg', size: 5 }));
    const chunks: Uint8Array[] = [];
    for await (const chunk of opened!.body) chunks.push(chunk);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(bytes));
    expect(await media.open(user.id + 1, id)).toBeNull();
    expect(store.jobs.jobs().filter((j) => j.kind === INBOUND_MEDIA_JOB)).toEqual([]);

    http.answer(
      { error: 'response_too_large' },
      { statusCode: 200, headers: { 'content-type': 'audio/ogg' }, bytes: new Uint8Array([1]) },
    );
    const voice = await receive.execute({
      sender: s,
      customerPhone: CUSTOMER,
      customerName: null,
      text: null,
      providerMessageId: null,
      media: { source: { kind: 'url', ref: 'https://cdn.example.com/big.ogg' }, mediaType: 'audio', caption: null },
    });
    const failed = (await conversations.recentMessages(voice.conversation.id, 10)).at(-1)!;
    expect(failed).toEqual(
      expect.objectContaining({ type: 'media', mediaUrl: null, mediaError: 'the file is larger than 16 MB' }),
    );
    expect(log.lines.map((l) => l.message)).toContain('inbound media could not be downloaded; it is retried');
    const [retry] = store.jobs.jobs().filter((j) => j.kind === INBOUND_MEDIA_JOB);
    expect(retry).toEqual(expect.objectContaining({ runAt: new Date(START.getTime() + 30_000) }));
    const mediaId = (retry.payload as { media_id: string }).media_id;
    expect(await media.open(user.id, mediaId)).toBeNull();
    expect(await media.download(mediaId)).toBe(true);
    expect((await conversations.recentMessages(voice.conversation.id, 10)).at(-1)).toEqual(
      expect.objectContaining({ mediaUrl: `https://vp.example/api/user/chatapp/media/${mediaId}`, mediaError: null }),
    );
    expect(await media.download(mediaId)).toBe(true);
    expect(http.requests).toHaveLength(3);
  });

  it('a provider media id is read through the chat app; a provider without media records why', async () => {
    const { store, inbound, sender, conversations } = setup();
    const user = await store.account();
    const s = await sender(user.id);
    await inbound.handle({
      kind: 'customer_message',
      providerItemId: 'wamid.m',
      providerSenderRef: `pn-${user.id}`,
      customerPhone: CUSTOMER,
      customerName: null,
      text: null,
      media: { mediaType: 'document', providerMediaId: '1234567890', caption: null },
      receivedAt: START,
    });
    const conversation = (await conversations.find(s.id, CUSTOMER))!;
    expect((await conversations.recentMessages(conversation.id, 10))[0]).toEqual(
      expect.objectContaining({
        type: 'media',
        mediaType: 'document',
        mediaUrl: null,
        mediaError: 'The sandbox chat app keeps no media.',
      }),
    );
  });
});

describe("the sandbox controls and the send reads: the caller's records only", () => {
  const unread = (): never => {
    throw new Error('read before the ownership check');
  };
  const scene = async () => {
    const base = setup();
    const { store, senders, templates, conversations, messages, receive, deliveryStatus, sandbox } = base;
    const controls = new SandboxChatappControls(
      { senders, templates, conversations, messages },
      store.uow,
      receive,
      deliveryStatus,
      sandbox,
      store.clock,
    );
    const queries = new ChatappMessageQueries(senders, conversations, messages, store.clock);
    const owner = await store.account({ balance: 1 });
    const stranger = await store.account({ balance: 1 });
    return { ...base, controls, queries, owner: owner.id, stranger: stranger.id, s: await base.sender(owner.id) };
  };

  it("sandbox inbound message and expire-window on a stranger's sender are not found; on the owner's they open and close the window the session read reports", async () => {
    const { controls, queries, owner, stranger, s } = await scene();
    const message = {
      senderId: s.id,
      customerPhone: CUSTOMER,
      customerName: 'Ann',
      text: 'Hi',
      media: null,
      providerMessageId: null,
    };
    expect(await controls.inbound(stranger, message)).toEqual(err('not_found'));
    expect(await queries.session(stranger, s.id, CUSTOMER)).toEqual(err('sender_not_found'));
    expect(await queries.session(owner, s.id, 'not a number')).toEqual(err('invalid_phone'));
    const none = await queries.session(owner, s.id, '+14155550000');
    expect(none.ok && [none.value.conversation, none.value.sessionStatus.isOpen, none.value.windowOpenedBy]).toEqual([
      null,
      false,
      null,
    ]);

    const received = await controls.inbound(owner, message);
    if (!received.ok) throw new Error('not received');
    const open = await queries.session(owner, s.id, CUSTOMER);
    expect(
      open.ok && [open.value.conversation?.id, open.value.sessionStatus.isOpen, open.value.windowOpenedBy],
    ).toEqual([received.value.conversation.id, true, 'customer']);

    expect(await controls.expireWindow(stranger, s.id, CUSTOMER)).toEqual(err('not_found'));
    expect(await controls.expireWindow(owner, s.id, '+14155550000')).toEqual(err('not_found'));
    const expired = await controls.expireWindow(owner, s.id, CUSTOMER);
    expect(expired.ok && expired.value.isOpen).toBe(false);
    const closed = await queries.session(owner, s.id, CUSTOMER);
    expect(closed.ok && closed.value.sessionStatus.isOpen).toBe(false);
  });

  it("sandbox sender, template and message statuses refuse a stranger before reading the body; the owner's statuses apply", async () => {
    const { controls, queries, sendTemplate, templates, owner, stranger, s, sandbox } = await scene();
    expect(await controls.senderStatus(stranger, s.id, unread)).toEqual(err('not_found'));
    const offline = await controls.senderStatus(owner, s.id, () => ({ status: 'offline', qualityRating: 'RED' }));
    expect(offline.ok && [offline.value.status, offline.value.qualityRating]).toEqual(['offline', 'RED']);
    await controls.senderStatus(owner, s.id, () => ({ status: 'online', qualityRating: null }));

    const template = (await templates.create({
      senderId: s.id,
      name: 'welcome',
      language: 'en',
      category: 'utility',
      status: 'approved',
      bodyText: 'Hello',
      footerText: null,
      variables: [],
      providerTemplateRef: 'tpl-1',
      now: START,
    }))!;
    expect(await controls.templateStatus(stranger, template.id, unread)).toEqual(err('not_found'));
    const rejected = await controls.templateStatus(owner, template.id, () => ({
      status: 'rejected',
      rejectionReason: 'Too short',
    }));
    expect(rejected.ok && rejected.value.status).toBe('rejected');
    await controls.templateStatus(owner, template.id, () => ({ status: 'approved', rejectionReason: null }));

    const sent = await sendTemplate.execute({
      userId: owner,
      senderId: s.id,
      templateId: template.id,
      recipientPhone: CUSTOMER,
      recipientName: null,
      variables: {},
      source: 'api',
      requestId: 'r-1',
    });
    if (!sent.ok) throw new Error(`not sent: ${JSON.stringify(sent.error)}`);
    const sid = sent.value.chatapp.messageSid;
    expect(await controls.messageStatus(stranger, sid, unread)).toEqual(err('not_found'));
    expect(await queries.message(stranger, sid)).toEqual(err('message_not_found'));
    const delivered = await controls.messageStatus(owner, sid, () => ({
      status: 'delivered',
      errorCode: null,
      errorMessage: null,
    }));
    expect(delivered.ok && delivered.value.status).toBe('delivered');
    const read = await queries.message(owner, sid);
    expect(read.ok && read.value.status).toBe('delivered');

    expect(await controls.outbox(stranger, { senderId: s.id }, 10)).toEqual(err('not_found'));
    const outbox = await controls.outbox(owner, { senderId: s.id }, 10);
    expect(outbox.ok && outbox.value.map((i) => [i.to, i.type])).toEqual([[CUSTOMER, 'template']]);
    expect(await sandbox.outbox(stranger, {}, 10)).toEqual([]);
  });
});

describe('SendTemplateMessage', () => {
  it('uses the monthly allowance first, then charges the template price with a ledger entry', async () => {
    const { store, templates, sendTemplate, sender } = setup();
    const user = await store.account({ balance: 1, plan: { included_template_messages: 1 } });
    const s = await sender(user.id);
    const tpl = (await templates.create({
      senderId: s.id,
      name: 'hi',
      language: 'en',
      category: 'utility',
      status: 'approved',
      bodyText: 'Hi {{name}}',
      footerText: null,
      variables: ['name'],
      providerTemplateRef: null,
      now: START,
    }))!;
    const send = (to: string) =>
      sendTemplate.execute({
        userId: user.id,
        senderId: s.id,
        templateId: tpl.id,
        recipientPhone: to,
        recipientName: null,
        variables: { 1: 'Ann' },
        source: 'automation',
      });

    const first = await send(CUSTOMER);
    expect(first.ok && first.value.chatapp.cost).toBe(0);
    const second = await send('+14155550000');
    expect(second.ok && second.value.chatapp.cost).toBe(0.05);
    expect((await store.users.findById(user.id))!.balance).toBe(0.95);
    expect(await send('not-a-phone')).toEqual(err({ code: 'invalid_phone' }));
  });
});

describe('ChatappInbound (the provider ingress items)', () => {
  it('a customer message opens the window and gets the AI reply; unknown senders and messages are dropped', async () => {
    const { store, inbound, conversations, sandbox, sender, assistant, log } = setup();
    const user = await store.account({ balance: 1 });
    const s = await sender(user.id, await assistant(user.id));
    await inbound.handle({
      kind: 'customer_message',
      providerItemId: 'wamid.1',
      providerSenderRef: `pn-${user.id}`,
      customerPhone: CUSTOMER,
      customerName: 'Ann',
      text: 'Hi',
      media: null,
      receivedAt: START,
    });
    const conversation = (await conversations.find(s.id, CUSTOMER))!;
    expect(conversation).toEqual(
      expect.objectContaining({
        customerName: 'Ann',
        messageCount: 2,
        window: { lastCustomerMessageAt: START, lastTemplateSentAt: null },
      }),
    );
    expect((await sandbox.outbox(user.id, {}, 10)).map((m) => m.body)).toEqual([SANDBOX_AI_REPLY]);

    await inbound.handle({
      kind: 'customer_message',
      providerItemId: 'wamid.2',
      providerSenderRef: 'pn-unknown',
      customerPhone: CUSTOMER,
      customerName: null,
      text: 'Hi',
      media: null,
      receivedAt: START,
    });
    await inbound.handle({
      kind: 'message_status',
      providerItemId: 's.1',
      providerMessageId: 'nobody',
      status: 'read',
      at: START,
      errorCode: null,
      errorMessage: null,
    });
    await inbound.handle({
      kind: 'call_event',
      providerItemId: 'c.1',
      providerSenderRef: `pn-${user.id}`,
      providerCallId: 'x',
      event: 'connect',
      at: START,
    });
    expect(log.lines.map((l) => l.message)).toEqual([
      'chat-app item dropped',
      'chat-app item dropped',
      'chat-app call event acknowledged',
    ]);
  });

  it("a call-permission reply grants (or declines) the contact's permission; an unknown sender is dropped", async () => {
    const { store, inbound, permissions, sender, log } = setup();
    const user = await store.account();
    const s = await sender(user.id);
    const reply = (response: 'accept' | 'reject', ref = `pn-${user.id}`) =>
      inbound.handle({
        kind: 'call_permission_reply',
        providerItemId: `r.${response}`,
        providerSenderRef: ref,
        customerPhone: CUSTOMER,
        response,
        isPermanent: false,
        expiresAt: null,
        at: START,
      });

    await reply('accept');
    expect(await permissions.find(s.id, CUSTOMER)).toMatchObject({
      status: 'granted',
      expiresAt: new Date(START.getTime() + 7 * 24 * 60 * MINUTE),
    });
    await reply('reject');
    expect(await permissions.find(s.id, CUSTOMER)).toMatchObject({ status: 'revoked' });
    await reply('accept', 'pn-unknown');
    expect(log.lines.map((l) => l.message)).toEqual(['chat-app item dropped']);
  });

  it('maps template and sender status items onto the records', async () => {
    const { store, inbound, templates, senders, sender } = setup();
    const user = await store.account();
    const s = await sender(user.id);
    const tpl = (await templates.create({
      senderId: s.id,
      name: 'hi',
      language: 'en',
      category: 'utility',
      status: 'pending',
      bodyText: 'Hi',
      footerText: null,
      variables: [],
      providerTemplateRef: 'tpl-9',
      now: START,
    }))!;
    await inbound.handle({
      kind: 'template_status',
      providerItemId: 't.1',
      providerTemplateRef: 'tpl-9',
      status: 'rejected',
      rejectionReason: 'Too vague',
    });
    expect(await templates.findForSender(s.id, tpl.id)).toEqual(
      expect.objectContaining({ status: 'rejected', rejectionReason: 'Too vague' }),
    );
    await inbound.handle({
      kind: 'sender_reach',
      providerItemId: 'n.1',
      providerSenderRef: `pn-${user.id}`,
      reach: { qualityRating: 'YELLOW', messagingLimit: { value: 10_000 } },
    });
    expect(await senders.findOwned(user.id, s.id)).toEqual(
      expect.objectContaining({ status: 'online', qualityRating: 'YELLOW', messagingLimit: 10_000 }),
    );
    await inbound.handle({
      kind: 'account_status',
      providerItemId: 'a.1',
      providerAccountRef: `waba-${user.id}`,
      status: 'offline',
    });
    expect((await senders.findOwned(user.id, s.id))?.status).toBe('offline');
  });
});

describe('end on inactivity with a controllable clock', () => {
  it("ends at the assistant's timeout, not before; a later message moves the job; disable-ai keeps AI off after a reopen", async () => {
    const { store, ending, receive, toggle, sender, assistant, conversations } = setup();
    const user = await store.account({ balance: 1 });
    const s = await sender(user.id, await assistant(user.id, { conversationInactivityTimeout: 10 }));
    const first = await receive.execute({
      sender: s,
      customerPhone: CUSTOMER,
      customerName: null,
      text: 'Hi',
      media: null,
      providerMessageId: null,
    });
    const id = first.conversation.id;
    const job = () => store.jobs.jobs().find((j) => j.key === inactivityJobKey(id));
    expect(job()).toEqual(
      expect.objectContaining({ kind: CONVERSATION_INACTIVITY_JOB, runAt: new Date(START.getTime() + 10 * MINUTE) }),
    );

    store.clock.advance(5 * MINUTE);
    await receive.execute({
      sender: s,
      customerPhone: CUSTOMER,
      customerName: null,
      text: 'Still there?',
      media: null,
      providerMessageId: null,
    });
    store.clock.advance(6 * MINUTE);
    expect((await ending.end(id))?.status).toBe('open');
    expect(job()?.runAt).toEqual(new Date(START.getTime() + 15 * MINUTE));

    await toggle.set(user.id, { id }, false);
    store.clock.advance(4 * MINUTE);
    expect(await ending.end(id)).toEqual(
      expect.objectContaining({ status: 'ended', endedCount: 1, endedAt: new Date(START.getTime() + 15 * MINUTE) }),
    );
    const reopened = await receive.execute({
      sender: s,
      customerPhone: CUSTOMER,
      customerName: null,
      text: 'Back',
      media: null,
      providerMessageId: null,
    });
    expect(reopened.aiReply).toEqual({ reply: null, skipped: 'ai_disabled' });
    expect(await conversations.lockById(id)).toEqual(
      expect.objectContaining({ status: 'open', endedAt: null, aiEnabled: false, endedCount: 1 }),
    );
  });

  it("sandbox end-now ends the owner's conversation now, before its deadline; another account's is not found", async () => {
    const { store, ending, receive, sender, assistant } = setup();
    const owner = await store.account({ balance: 1 });
    const stranger = await store.account({ balance: 1 });
    const s = await sender(owner.id, await assistant(owner.id, { conversationInactivityTimeout: 10 }));
    const { conversation } = await receive.execute({
      sender: s,
      customerPhone: CUSTOMER,
      customerName: null,
      text: 'Hi',
      media: null,
      providerMessageId: null,
    });
    expect(await ending.endOwnedNow(stranger.id, { uuid: conversation.uuid })).toEqual(err('conversation_not_found'));
    const ended = await ending.endOwnedNow(owner.id, { uuid: conversation.uuid });
    expect(ended.ok && [ended.value.id, ended.value.status, ended.value.endedAt]).toEqual([
      conversation.id,
      'ended',
      START,
    ]);
  });

  describe('with post_call_evaluation: the transcript evaluated against post_call_schema outside the locks', () => {
    const schema = [{ name: 'customer_name', type: 'string' as const, description: 'Who wrote' }];
    const endedVariables = (store: FakeStore) =>
      (
        store.outbox.events(CONVERSATION_ENDED_TOPIC).at(-1)?.payload as {
          conversation: { extracted_variables: unknown };
        }
      ).conversation.extracted_variables;
    const generatorEvaluating = (evaluate: ReplyGenerator['evaluateConversation']): ReplyGenerator => ({
      nextTurn: async () => ({ content: 'Hello', toolCalls: [] }),
      evaluateConversation: evaluate,
    });
    /** A customer wrote, the assistant answered, and the conversation has been quiet past its timeout since. */
    async function quietConversation(
      generator: ReplyGenerator,
      assistantOver: Record<string, unknown> = { postCallSchema: schema },
      text = 'Hi',
    ) {
      const scene = setup(generator);
      const user = await scene.store.account({ balance: 1 });
      const s = await scene.sender(user.id, await scene.assistant(user.id, assistantOver));
      const received = await scene.receive.execute({
        sender: s,
        customerPhone: CUSTOMER,
        customerName: null,
        text,
        media: null,
        providerMessageId: null,
      });
      scene.store.clock.advance(31 * MINUTE);
      return { ...scene, s, id: received.conversation.id };
    }

    it("puts the evaluator's fields, status and summary into the ended event; the evaluator saw the transcript and the schema", async () => {
      const seen: unknown[] = [];
      const { store, ending, id } = await quietConversation(
        generatorEvaluating(async (request) => {
          seen.push(request);
          return { customer_name: 'Ann', status: true, summary: 'Greeted.' };
        }),
        undefined,
        'Hi, Ann here',
      );

      expect((await ending.end(id))?.status).toBe('ended');
      expect(endedVariables(store)).toEqual({ customer_name: 'Ann', status: true, summary: 'Greeted.' });
      expect(seen).toEqual([
        {
          model: expect.any(String),
          schema,
          transcript: [
            { role: 'user', content: 'Hi, Ann here' },
            { role: 'assistant', content: 'Hello' },
          ],
        },
      ]);
    });

    it('leaves the conversation open when a message arrives while the evaluator reads', async () => {
      let receiveDuring: () => Promise<unknown> = async () => undefined;
      const { store, receive, ending, s, id } = await quietConversation(
        generatorEvaluating(async () => {
          await receiveDuring();
          return { status: true, summary: 'Stale.' };
        }),
      );
      receiveDuring = () =>
        receive.execute({
          sender: s,
          customerPhone: CUSTOMER,
          customerName: null,
          text: 'Wait!',
          media: null,
          providerMessageId: null,
        });

      expect((await ending.end(id))?.status).toBe('open');
      expect(store.outbox.events(CONVERSATION_ENDED_TOPIC)).toEqual([]);
    });

    it('ends claiming nothing when the evaluator fails, and says so in the log', async () => {
      const { store, ending, log, id } = await quietConversation(
        generatorEvaluating(async () => Promise.reject(new Error('model overloaded'))),
      );

      expect((await ending.end(id))?.status).toBe('ended');
      expect(endedVariables(store)).toEqual({ customer_name: null, status: false, summary: '' });
      expect(log.lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ message: 'conversation evaluation failed; the end claims nothing' }),
        ]),
      );
    });

    it('sends nothing to the evaluator for an assistant that does not evaluate', async () => {
      const { store, ending, log, id } = await quietConversation(
        generatorEvaluating(async () => Promise.reject(new Error('not to be called'))),
        { postCallEvaluation: false },
      );

      expect((await ending.end(id))?.status).toBe('ended');
      expect(endedVariables(store)).toEqual({});
      expect(log.lines).toEqual([]);
    });
  });
});
