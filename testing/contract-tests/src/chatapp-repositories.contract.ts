import { randomUUID } from 'node:crypto';
import { ok, recordMessage } from '@voiceplane/domain';
import {
  ChatappMessageRepository,
  ConversationRepository,
  InboundMediaRepository,
  NewChatappMessage,
  NewSender,
  SenderRepository,
  TemplateRepository,
} from '@voiceplane/application';

export interface ChatappStores {
  readonly senders: SenderRepository;
  readonly templates: TemplateRepository;
  readonly conversations: ConversationRepository;
  readonly messages: ChatappMessageRepository;
  readonly media: InboundMediaRepository;
  /** Two accounts. */
  readonly users: readonly [number, number];
}

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute));
let numbers = 0;
const phone = () => `+4917${String(process.pid % 1000).padStart(3, '0')}${String(++numbers).padStart(6, '0')}`;

/** The chat-app repositories' behaviour, run against every implementation. `open` gives empty stores for each test. */
export function chatappRepositoriesContract(name: string, open: () => Promise<ChatappStores>): void {
  describe(`chat-app repositories contract: ${name}`, () => {
    let s: ChatappStores;
    beforeEach(async () => {
      s = await open();
    });

    const newSender = (userId: number, over: Partial<NewSender> = {}): NewSender => ({
      userId,
      phoneNumber: phone(),
      displayName: 'Acme',
      status: 'online',
      qualityRating: 'GREEN',
      messagingLimit: 1000,
      countryCode: 'DE',
      assistantId: null,
      callingEnabled: false,
      statusWebhookUrl: null,
      provider: 'sandbox',
      providerSenderRef: null,
      providerAccountRef: null,
      sealedCredentials: null,
      now: at(0),
      ...over,
    });
    const outbound = (
      userId: number,
      senderId: number,
      conversationId: number,
      over: Partial<NewChatappMessage> = {},
    ): NewChatappMessage => ({
      userId,
      conversationId,
      senderId,
      direction: 'outbound',
      source: 'api',
      type: 'text',
      body: 'Hello',
      media: null,
      templateId: null,
      from: '+4915112345678',
      to: '+14155551234',
      messageSid: `SM${randomUUID().replace(/-/g, '')}`,
      providerMessageId: `p-${randomUUID()}`,
      status: 'queued',
      cost: 0.01,
      fromAllowance: false,
      now: at(1),
      ...over,
    });

    it('senders: one per phone number across accounts; owned reads, status filter, partial update, provider ref', async () => {
      const [a, b] = s.users;
      const first = (await s.senders.create(newSender(a, { providerSenderRef: 'pn-1', sealedCredentials: 'sealed' })))!;
      expect(await s.senders.create(newSender(b, { phoneNumber: first.phoneNumber }))).toBeNull();
      const offline = (await s.senders.create(newSender(a, { status: 'offline' })))!;
      expect(await s.senders.findOwned(b, first.id)).toBeNull();
      expect((await s.senders.list(a, 'online')).map((x) => x.id)).toEqual([first.id]);
      expect((await s.senders.list(a, 'all')).map((x) => x.id)).toEqual([first.id, offline.id]);
      const updated = await s.senders.update(
        a,
        first.id,
        { displayName: 'New', statusWebhookUrl: 'https://hooks.example.com/s' },
        at(5),
      );
      expect(updated).toEqual({
        ...first,
        displayName: 'New',
        statusWebhookUrl: 'https://hooks.example.com/s',
        updatedAt: at(5),
      });
      expect(await s.senders.update(b, first.id, { displayName: 'X' }, at(5))).toBeNull();
      expect((await s.senders.setStatus(first.id, 'offline', null, at(6)))?.qualityRating).toBe('GREEN');
      expect((await s.senders.findByProviderRef('pn-1'))?.id).toBe(first.id);
      expect((await s.senders.findByProviderRef(offline.phoneNumber))?.id).toBe(offline.id);
      expect(await s.senders.sealedCredentials(first.id)).toBe('sealed');

      expect(await s.senders.callingLine(first.id)).toEqual({ trunkId: null, sealedSipPassword: null, error: null });
      await s.senders.setCallingLine(first.id, { trunkId: null, sealedSipPassword: null, error: 'x'.repeat(300) });
      expect((await s.senders.callingLine(first.id))?.error).toHaveLength(255);
      await s.senders.setCallingLine(first.id, { trunkId: 'ST_wa1', sealedSipPassword: 'sealed-sip', error: null });
      expect(await s.senders.callingLine(first.id)).toEqual({
        trunkId: 'ST_wa1',
        sealedSipPassword: 'sealed-sip',
        error: null,
      });
      expect((await s.senders.findOwned(a, first.id))?.updatedAt).toEqual(at(6));
      expect(await s.senders.callingLine(999_999_999)).toBeNull();
    });

    it('senders: an account-wide status reaches every sender of that business account only; reach changes quality and limit, never status', async () => {
      const [a, b] = s.users;
      const waba = `waba-${randomUUID()}`;
      const one = (await s.senders.create(newSender(a, { providerAccountRef: waba })))!;
      const two = (await s.senders.create(newSender(b, { providerAccountRef: waba })))!;
      const other = (await s.senders.create(newSender(a, { providerAccountRef: `waba-${randomUUID()}` })))!;
      const changed = await s.senders.setAccountStatus(waba, 'offline', at(7));
      expect(changed).toEqual([
        { ...one, status: 'offline', updatedAt: at(7) },
        { ...two, status: 'offline', updatedAt: at(7) },
      ]);
      expect((await s.senders.findOwned(a, other.id))?.status).toBe('online');
      expect(await s.senders.setAccountStatus(`waba-${randomUUID()}`, 'offline', at(7))).toEqual([]);

      expect(
        await s.senders.setReach(other.id, { qualityRating: 'YELLOW', messagingLimit: { value: 10_000 } }, at(8)),
      ).toEqual({ ...other, qualityRating: 'YELLOW', messagingLimit: 10_000, updatedAt: at(8) });
      expect(
        await s.senders.setReach(other.id, { qualityRating: null, messagingLimit: { value: null } }, at(9)),
      ).toEqual({ ...other, qualityRating: 'YELLOW', messagingLimit: null, updatedAt: at(9) });
      expect(await s.senders.setReach(other.id, { qualityRating: 'RED', messagingLimit: null }, at(10))).toEqual({
        ...other,
        qualityRating: 'RED',
        messagingLimit: null,
        updatedAt: at(10),
      });
    });

    it('inbound media: a failure shows on its message until the copy is kept; stored media is found for its owner only', async () => {
      const [a, b] = s.users;
      const sender = (await s.senders.create(newSender(a)))!;
      const c = await s.conversations.lockOrCreate({
        userId: a,
        senderId: sender.id,
        customerPhone: '+14155551234',
        uuid: randomUUID(),
        now: at(0),
      });
      const { messageId } = await s.messages.record(
        outbound(a, sender.id, c.id, {
          direction: 'inbound',
          source: 'customer',
          type: 'media',
          body: null,
          media: { url: null, mediaType: 'image', filename: null },
          status: 'received',
        }),
      );
      const id = `med_${randomUUID().replace(/-/g, '').slice(0, 22)}`;
      await s.media.create({
        id,
        userId: a,
        senderId: sender.id,
        messageId,
        source: { kind: 'provider', ref: '998877' },
        now: at(1),
      });
      expect(await s.media.find(id)).toEqual({
        id,
        userId: a,
        senderId: sender.id,
        messageId,
        source: { kind: 'provider', ref: '998877' },
        status: 'pending',
        contentType: null,
      });
      expect(await s.media.findStoredOwned(a, id)).toBeNull();
      await s.media.markFailed(id, 'the connection failed', at(2));
      const message = async () => (await s.conversations.recentMessages(c.id, 10)).find((m) => m.id === messageId);
      expect(await message()).toEqual(expect.objectContaining({ mediaUrl: null, mediaError: 'the connection failed' }));
      await s.media.markStored(
        id,
        { contentType: 'image/png', size: 12, mediaUrl: `https://vp.example/api/user/chatapp/media/${id}` },
        at(3),
      );
      expect(await message()).toEqual(
        expect.objectContaining({ mediaUrl: `https://vp.example/api/user/chatapp/media/${id}`, mediaError: null }),
      );
      await s.media.markFailed(id, 'late failure', at(4));
      expect((await message())?.mediaError).toBeNull();
      expect(await s.media.findStoredOwned(a, id)).toEqual(
        expect.objectContaining({ status: 'stored', contentType: 'image/png' }),
      );
      expect(await s.media.findStoredOwned(b, id)).toBeNull();
      expect(await s.media.find('med_unknown')).toBeNull();
    });

    it('inbound media: expiry removes media created before the cutoff, clears their messages and lists them for the store until forgotten', async () => {
      const [a] = s.users;
      const sender = (await s.senders.create(newSender(a)))!;
      const c = await s.conversations.lockOrCreate({
        userId: a,
        senderId: sender.id,
        customerPhone: '+14155551234',
        uuid: randomUUID(),
        now: at(0),
      });
      const media = async (createdAt: Date) => {
        const { messageId } = await s.messages.record(
          outbound(a, sender.id, c.id, {
            direction: 'inbound',
            source: 'customer',
            type: 'media',
            body: null,
            media: { url: null, mediaType: 'image', filename: null },
            status: 'received',
          }),
        );
        const id = `med_${randomUUID().replace(/-/g, '').slice(0, 22)}`;
        await s.media.create({
          id,
          userId: a,
          senderId: sender.id,
          messageId,
          source: { kind: 'provider', ref: id },
          now: createdAt,
        });
        await s.media.markStored(
          id,
          { contentType: 'image/png', size: 1, mediaUrl: `https://vp.example/m/${id}` },
          createdAt,
        );
        return { id, messageId };
      };
      const old = await media(at(-10 * 86_400_000));
      const fresh = await media(at(0));
      expect(
        await s.media.expireCreatedBefore(at(-86_400_000), 'the file was deleted after 1 days', 100),
      ).toBeGreaterThanOrEqual(1);
      expect(await s.media.find(old.id)).toBeNull();
      expect(await s.media.find(fresh.id)).not.toBeNull();
      const message = (await s.conversations.recentMessages(c.id, 10)).find((m) => m.id === old.messageId);
      expect(message).toEqual(
        expect.objectContaining({ mediaUrl: null, mediaError: 'the file was deleted after 1 days' }),
      );
      expect(await s.media.deletedIds(10_000)).toContain(old.id);
      expect(await s.media.deletedIds(10_000)).not.toContain(fresh.id);
      await s.media.forgetDeleted([old.id]);
      expect(await s.media.deletedIds(10_000)).not.toContain(old.id);
      await s.media.forgetDeleted([]);
    });

    it('templates: unique name and language per sender; per-sender reads, status changes keep the reason only when rejected', async () => {
      const [a, b] = s.users;
      const sender = (await s.senders.create(newSender(a)))!;
      const base = {
        senderId: sender.id,
        name: 'order',
        language: 'en',
        category: 'utility' as const,
        status: 'approved' as const,
        bodyText: 'Hi {{1}}',
        footerText: null,
        variables: ['1'],
        providerTemplateRef: 'tpl-1',
        now: at(0),
      };
      const t = (await s.templates.create(base))!;
      expect(await s.templates.create(base)).toBeNull();
      expect(
        (await s.templates.create({ ...base, language: 'de', status: 'pending', providerTemplateRef: null }))?.status,
      ).toBe('pending');
      expect(t).toEqual(expect.objectContaining({ variables: ['1'], rejectionReason: null, footerText: null }));
      expect(await s.templates.findForSender(sender.id + 1000, t.id)).toBeNull();
      expect(await s.templates.findOwned(b, t.id)).toBeNull();
      expect((await s.templates.findOwned(a, t.id))?.id).toBe(t.id);
      expect((await s.templates.list(sender.id, 'approved')).map((x) => x.language)).toEqual(['en']);
      expect(await s.templates.list(sender.id, 'all')).toHaveLength(2);
      expect((await s.templates.setStatus(t.id, 'rejected', 'Too vague', at(2)))?.rejectionReason).toBe('Too vague');
      expect((await s.templates.setStatus(t.id, 'approved', 'ignored', at(3)))?.rejectionReason).toBeNull();
      expect((await s.templates.findByProviderRef('tpl-1'))?.id).toBe(t.id);
    });

    it('conversations: one per sender and customer; saved as the domain changed it; found by id or uuid of the owner only', async () => {
      const [a, b] = s.users;
      const sender = (await s.senders.create(newSender(a)))!;
      const key = { userId: a, senderId: sender.id, customerPhone: '+14155551234', uuid: randomUUID(), now: at(0) };
      const created = await s.conversations.lockOrCreate(key);
      expect(await s.conversations.lockOrCreate({ ...key, uuid: randomUUID() })).toEqual(created);
      expect(created).toEqual(
        expect.objectContaining({
          uuid: key.uuid,
          status: 'open',
          aiEnabled: true,
          messageCount: 0,
          lastMessageAt: null,
        }),
      );
      const changed = recordMessage(created, {
        source: 'customer',
        type: 'text',
        at: at(3),
        assistantId: null,
        customerName: 'Ann',
      }).next;
      await s.conversations.save(changed);
      expect(await s.conversations.find(sender.id, '+14155551234')).toEqual(changed);
      expect(await s.conversations.lock(sender.id, '+14155551234')).toEqual(changed);
      expect(await s.conversations.lockById(created.id)).toEqual(changed);
      expect(await s.conversations.findOwned(a, { uuid: key.uuid })).toEqual(changed);
      expect(await s.conversations.findOwned(b, { id: created.id })).toBeNull();
      expect(await s.conversations.lock(sender.id, '+14155550000')).toBeNull();
    });

    it('messages: recordSaving saves the conversation and records the message, as save and record do', async () => {
      const [a] = s.users;
      const sender = (await s.senders.create(newSender(a)))!;
      const key = { userId: a, senderId: sender.id, customerPhone: '+14155551234', uuid: randomUUID(), now: at(0) };
      const created = await s.conversations.lockOrCreate(key);
      const changed = recordMessage(created, {
        source: 'api',
        type: 'text',
        at: at(2),
        assistantId: null,
        customerName: 'Ada',
      }).next;
      const stored = await s.messages.recordSaving(changed, outbound(a, sender.id, created.id, { status: 'sent' }));
      expect(await s.conversations.find(sender.id, '+14155551234')).toEqual(changed);
      expect(await s.messages.findOwnedBySid(a, stored.chatapp.messageSid)).toEqual(stored.chatapp);
      expect(stored.chatapp).toMatchObject({ conversationId: created.id, status: 'sent', cost: 0.01 });
    });

    it('conversations list: most recent message first, filters, and a cursor that continues after the last item', async () => {
      const [a] = s.users;
      const sender = (await s.senders.create(newSender(a)))!;
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const c = await s.conversations.lockOrCreate({
          userId: a,
          senderId: sender.id,
          customerPhone: `+1415555000${i}`,
          uuid: randomUUID(),
          now: at(0),
        });
        await s.conversations.save(
          recordMessage(c, { source: 'customer', type: 'text', at: at(10 - i), assistantId: null }).next,
        );
        ids.push(c.id);
      }
      const first = await s.conversations.list(a, {}, null, 2);
      expect(first.items.map((c) => c.id)).toEqual([ids[0], ids[1]]);
      expect(first.prev).toBeNull();
      const second = await s.conversations.list(a, {}, first.next, 2);
      expect(second.items.map((c) => c.id)).toEqual([ids[2]]);
      expect(second.next).toBeNull();
      const back = await s.conversations.list(a, {}, second.prev, 2);
      expect(back.items.map((c) => c.id)).toEqual([ids[0], ids[1]]);
      expect([back.prev, back.next]).toEqual([null, first.next]);
      const middle = await s.conversations.list(a, {}, (await s.conversations.list(a, {}, null, 1)).next, 1);
      expect(middle.items.map((c) => c.id)).toEqual([ids[1]]);
      expect((await s.conversations.list(a, {}, middle.prev, 5)).items.map((c) => c.id)).toEqual([ids[0]]);
      expect(
        (await s.conversations.list(a, { customerPhone: '+14155550001' }, null, 10)).items.map((c) => c.id),
      ).toEqual([ids[1]]);
      expect((await s.conversations.list(a, { status: 'ended' }, null, 10)).items).toEqual([]);
    });

    it('messages: stored with their delivery record, newest first with a cursor, recent ones oldest first; statuses move under the row', async () => {
      const [a, b] = s.users;
      const sender = (await s.senders.create(newSender(a)))!;
      const c = await s.conversations.lockOrCreate({
        userId: a,
        senderId: sender.id,
        customerPhone: '+14155551234',
        uuid: randomUUID(),
        now: at(0),
      });
      const first = await s.messages.record(
        outbound(a, sender.id, c.id, { type: 'template', fromAllowance: true, now: at(1) }),
      );
      const second = await s.messages.record(outbound(a, sender.id, c.id, { now: at(2) }));
      const unsent = await s.messages.recordUnsent({
        userId: a,
        conversationId: c.id,
        source: 'ai',
        body: 'Hi',
        errorCode: 'INSUFFICIENT_BALANCE',
        now: at(3),
      });
      expect(first.chatapp).toEqual(
        expect.objectContaining({
          userId: a,
          messageId: first.messageId,
          status: 'queued',
          cost: 0.01,
          statusHistory: [{ status: 'queued', at: at(1) }],
        }),
      );
      const page = await s.conversations.messages(c.id, null, 2);
      expect(page.items.map((m) => [m.id, m.status, m.errorCode])).toEqual([
        [unsent, 'failed', 'INSUFFICIENT_BALANCE'],
        [second.messageId, 'queued', null],
      ]);
      const rest = await s.conversations.messages(c.id, page.next, 2);
      expect(rest.items.map((m) => [m.id, m.chatappMessageId, m.messageSid])).toEqual([
        [first.messageId, first.chatapp.id, first.chatapp.messageSid],
      ]);
      expect(rest.next).toBeNull();
      expect(page.prev).toBeNull();
      const back = await s.conversations.messages(c.id, rest.prev, 2);
      expect(back.items.map((m) => m.id)).toEqual([unsent, second.messageId]);
      expect([back.prev, back.next]).toEqual([null, page.next]);
      expect(
        (await s.conversations.messages(c.id, { id: second.messageId, before: true }, 5)).items.map((m) => m.id),
      ).toEqual([unsent]);
      expect((await s.conversations.recentMessages(c.id, 2)).map((m) => m.id)).toEqual([second.messageId, unsent]);

      expect(await s.messages.findOwnedBySid(b, first.chatapp.messageSid)).toBeNull();
      expect((await s.messages.findByProviderMessageId(first.chatapp.providerMessageId!))?.id).toBe(first.chatapp.id);
      expect(await s.messages.allowanceUsed(a, at(0))).toBe(1);
      expect(await s.messages.allowanceUsed(a, at(2))).toBe(0);
      const updated = await s.messages.updateDelivery(first.chatapp.id, async (m) =>
        ok({
          next: {
            status: 'delivered',
            errorCode: null,
            errorMessage: null,
            statusHistory: [...m.statusHistory, { status: 'delivered' as const, at: at(4) }],
          },
          at: at(4),
          answer: 'done',
        }),
      );
      expect(updated).toEqual(ok('done'));
      expect(await s.messages.findOwnedBySid(a, first.chatapp.messageSid)).toEqual(
        expect.objectContaining({
          status: 'delivered',
          updatedAt: at(4),
          statusHistory: [
            { status: 'queued', at: at(1) },
            { status: 'delivered', at: at(4) },
          ],
        }),
      );
      expect(
        await s.messages.updateDelivery(999999, async () => ok({ next: first.chatapp, at: at(5), answer: 1 })),
      ).toEqual({ ok: false, error: 'not_found' });
    });
  });
}
