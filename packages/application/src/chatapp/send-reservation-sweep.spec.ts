import {
  FakeStore,
  InMemoryChatappMessageRepository,
  InMemoryConversationRepository,
  InMemorySendReservationRepository,
  InMemorySenderRepository,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { BalanceService } from '../billing';
import { InactivitySchedule } from '../conversations';
import { SecretCipher } from '../common';
import { OutboundSends } from './outbound-send';
import { ChatappProvider, ProviderAcceptance } from './provider-ports';
import { ProviderSenders } from './provider-senders';
import { SEND_GIVE_UP_MS, SEND_SETTLE_AFTER_MS, SendReservationSweep } from './send-reservation-sweep';

const START = new Date('2030-05-01T12:00:00.000Z');

/** The sweep's answers for what a provider says, on the fakes; settling a found send is covered on PostgreSQL. */
function setup(findSend: ChatappProvider['findSend']) {
  const store = new FakeStore(START);
  const senders = new InMemorySenderRepository();
  const messages = new InMemoryChatappMessageRepository();
  const conversations = new InMemoryConversationRepository(messages);
  const reservations = new InMemorySendReservationRepository(conversations);
  const providerSenders = new ProviderSenders(senders, new SecretCipher(async () => 'k'.repeat(32)));
  const outbound = new OutboundSends(
    { uow: store.uow, users: store.users, conversations, messages, reservations, outbox: store.outbox },
    {
      balance: new BalanceService(store.ledger),
      providerSenders,
      inactivity: new InactivitySchedule(store.jobs, store.assistants),
    },
    store.ids,
    store.clock,
  );
  const provider = { findSend } as ChatappProvider;
  const log = new RecordingLogger();
  const sweep = new SendReservationSweep(
    { reservations, senders },
    { providerSenders, provider, outbound },
    store.clock,
    log,
  );
  const reserve = async (userId: number, senderId: number) =>
    reservations.reserve({
      userId,
      senderId,
      recipientPhone: '+14155551234',
      messageSid: `SM${'a'.repeat(31)}${senderId}`,
      amount: 0.01,
      fromAllowance: false,
      now: store.clock.now(),
      message: {
        source: 'api',
        type: 'text',
        body: 'hi',
        media: null,
        templateId: null,
        recipientName: null,
        createConversation: false,
        description: 'Freeform message',
        requestId: null,
      },
    });
  const sender = async (userId: number) =>
    (await senders.create({
      userId,
      phoneNumber: '+4915100000001',
      displayName: 'Acme',
      status: 'online',
      qualityRating: 'GREEN',
      messagingLimit: 1000,
      countryCode: 'DE',
      assistantId: null,
      callingEnabled: false,
      statusWebhookUrl: null,
      provider: 'whatsapp',
      providerSenderRef: null,
      providerAccountRef: null,
      sealedCredentials: null,
      now: START,
    }))!;
  return { store, reservations, sweep, reserve, sender, log };
}

describe('SendReservationSweep', () => {
  it('leaves young reservations alone, gives back what the provider never got, and what it cannot say as unknown (logged)', async () => {
    let answer: ProviderAcceptance | null | 'unknown' = null;
    const { store, reservations, sweep, reserve, sender, log } = setup(async () => answer);
    const user = await store.account();
    const s = await sender(user.id);
    const never = await reserve(user.id, s.id);
    expect(await sweep.sweep()).toEqual({});
    store.clock.advance(SEND_SETTLE_AFTER_MS + 1);
    expect(await sweep.sweep()).toEqual({ [never.id]: 'released' });
    const unknown = await reserve(user.id, s.id);
    store.clock.advance(SEND_SETTLE_AFTER_MS + 1);
    answer = 'unknown';
    expect(await sweep.sweep()).toEqual({ [unknown.id]: 'unknown' });
    expect(log.lines.map((l) => l.level)).toEqual(['warn']);
    expect(await reservations.held(user.id)).toEqual({ amount: 0, allowance: 0 });
  });

  it('keeps a reservation open while the provider cannot be reached (for a day at most), and releases one whose sender is gone', async () => {
    const { store, reservations, sweep, reserve, sender } = setup(async () => {
      throw new Error('connect ECONNREFUSED');
    });
    const user = await store.account();
    const s = await sender(user.id);
    const waiting = await reserve(user.id, s.id);
    const orphan = await reserve(user.id, s.id + 100);
    store.clock.advance(SEND_SETTLE_AFTER_MS + 1);
    expect(await sweep.sweep()).toEqual({ [waiting.id]: 'unreachable', [orphan.id]: 'released' });
    expect(await reservations.held(user.id)).toEqual({ amount: 0.01, allowance: 0 });
    store.clock.advance(SEND_GIVE_UP_MS);
    expect(await sweep.sweep()).toEqual({ [waiting.id]: 'unknown' });
    expect(await reservations.held(user.id)).toEqual({ amount: 0, allowance: 0 });
  });
});
