import { ChatappInboundItem, ChatappInbox } from '@voiceplane/application';

/**
 * The ChatappInbox port's behaviour, run against every inbox: one row per provider item, items
 * back as they went in (instants as dates). `open` gives an empty inbox for each test.
 */
export function chatappInboxContract(name: string, open: () => Promise<ChatappInbox>): void {
  describe(`ChatappInbox contract: ${name}`, () => {
    let store: ChatappInbox;
    const inbox = () => store;
    beforeEach(async () => {
      store = await open();
    });
    const received = new Date('2026-03-01T10:00:00.000Z');

    const message: ChatappInboundItem = {
      kind: 'customer_message',
      providerItemId: 'wamid.1',
      providerSenderRef: '106540352242922',
      customerPhone: '+16505551234',
      customerName: null,
      text: 'Hi',
      media: { mediaType: 'image', providerMediaId: '1003383421387256', caption: null },
      receivedAt: new Date('2026-03-01T09:59:58.000Z'),
    };
    const permission: ChatappInboundItem = {
      kind: 'call_permission_reply',
      providerItemId: 'wamid.2',
      providerSenderRef: '106540352242922',
      customerPhone: '+16505551234',
      response: 'accept',
      isPermanent: false,
      expiresAt: new Date('2026-03-08T10:00:00.000Z'),
      at: new Date('2026-03-01T10:00:00.000Z'),
    };
    const status: ChatappInboundItem = {
      kind: 'message_status',
      providerItemId: 'wamid.out:read',
      providerMessageId: 'wamid.out',
      status: 'read',
      at: new Date('2026-03-01T10:00:01.000Z'),
      errorCode: null,
      errorMessage: null,
    };

    it('stores new items once per provider and id, even twice in one batch, and answers only the new ids', async () => {
      const first = await inbox().add('whatsapp', [message, permission, message], received);
      expect(first).toHaveLength(2);
      const second = await inbox().add('whatsapp', [permission, status], received);
      expect(second).toHaveLength(1);
      expect(second[0]).toBeGreaterThan(Math.max(...first));
      expect(await inbox().add('whatsapp', [], received)).toEqual([]);
    });

    it('gives items back with their instants as dates, and marks them processed once', async () => {
      const [a, b] = await inbox().add(
        'whatsapp',
        [
          { ...message, providerItemId: 'wamid.10' },
          { ...permission, providerItemId: 'wamid.11' },
        ],
        received,
      );
      expect(await inbox().find(a)).toEqual({
        id: a,
        provider: 'whatsapp',
        item: { ...message, providerItemId: 'wamid.10' },
        processedAt: null,
      });
      expect((await inbox().find(b))!.item).toEqual({ ...permission, providerItemId: 'wamid.11' });
      await inbox().markProcessed(a, new Date('2026-03-01T10:00:05.000Z'));
      await inbox().markProcessed(a, new Date('2026-03-01T11:00:00.000Z'));
      expect((await inbox().find(a))!.processedAt).toEqual(new Date('2026-03-01T10:00:05.000Z'));
      expect(await inbox().find(999_999)).toBeNull();
    });

    it('purges handled items older than the cutoff, in batches, and keeps unhandled ones', async () => {
      const ids = await inbox().add(
        'whatsapp',
        [20, 21, 22].map((n) => ({ ...status, providerItemId: `wamid.p${n}` })),
        received,
      );
      await inbox().markProcessed(ids[0], new Date('2026-01-01T00:00:00.000Z'));
      await inbox().markProcessed(ids[1], new Date('2026-01-02T00:00:00.000Z'));
      expect(await inbox().purgeProcessedBefore(new Date('2026-02-01T00:00:00.000Z'), 1)).toBe(1);
      expect(await inbox().purgeProcessedBefore(new Date('2026-02-01T00:00:00.000Z'), 10)).toBe(1);
      expect(await inbox().find(ids[0])).toBeNull();
      expect(await inbox().find(ids[2])).not.toBeNull();
    });
  });
}
