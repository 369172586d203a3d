import { ChatappProvider, ChatappProviderRefusal, ProviderSender } from '@voiceplane/application';
import { QUALITY_RATINGS, TEMPLATE_STATUSES } from '@voiceplane/domain';

export interface ChatappProviderSubject {
  readonly provider: ChatappProvider;
  /** A sender the provider acts for (its number connected). */
  readonly sender: ProviderSender;
  /** A sender whose sends the provider refuses. */
  refusedSender(): Promise<ProviderSender>;
  /** The recipients of the messages the provider received, in order, as given to it. */
  delivered(): Promise<string[]>;
  /** A file a customer sent, held by the provider; absent when the provider keeps no media (the sandbox). */
  storedMedia?(): { readonly id: string; readonly bytes: Buffer };
}

const customer = '+4915112345678';
const digits = (phone: string) => phone.replace(/\D/g, '');
const template = {
  name: 'order_update',
  language: 'en_US',
  category: 'utility' as const,
  bodyText: 'Hi {{1}}, order {{2}} has shipped.',
  footerText: null,
};

/**
 * What the chat-app use cases rely on from any ChatappProvider: a registered sender's state in the
 * domain's words, a template status the domain knows, a distinct message id for every accepted
 * send (the id status items name later), a refusal as `ChatappProviderRefusal` with a reason the
 * user may read, and a file larger than allowed refused rather than read.
 */
export function chatappProviderContract(name: string, makeSubject: () => Promise<ChatappProviderSubject>): void {
  describe(`ChatappProvider contract: ${name}`, () => {
    let subject: ChatappProviderSubject;

    beforeEach(async () => {
      subject = await makeSubject();
    });

    it('names itself as senders store it', () => {
      expect(['sandbox', 'whatsapp']).toContain(subject.provider.name);
    });

    it("registers a connected sender online, with a quality rating and a messaging limit in the domain's words", async () => {
      const registered = await subject.provider.registerSender(subject.sender, 'Acme Support');
      expect(registered.status).toBe('online');
      expect(QUALITY_RATINGS).toContain(registered.qualityRating);
      if (registered.messagingLimit !== null)
        expect(Number.isInteger(registered.messagingLimit) && registered.messagingLimit > 0).toBe(true);
      for (const ref of [registered.providerSenderRef, registered.providerAccountRef])
        if (ref !== null) expect(ref).toMatch(/\S/);
    });

    it('answers a submitted template with a status the domain knows', async () => {
      const submitted = await subject.provider.submitTemplate(subject.sender, template);
      expect(TEMPLATE_STATUSES).toContain(submitted.status);
      if (submitted.providerTemplateRef !== null) expect(submitted.providerTemplateRef).toMatch(/\S/);
    });

    it('accepts templates, text and media under distinct message ids, and the recipient gets each', async () => {
      const accepted = [
        await subject.provider.sendTemplate(subject.sender, customer, {
          name: template.name,
          language: template.language,
          renderedText: 'Hi Ann, order 42 has shipped.',
          parameters: [
            { name: '1', value: 'Ann' },
            { name: '2', value: '42' },
          ],
        }),
        await subject.provider.sendFreeform(subject.sender, customer, {
          kind: 'text',
          text: 'Your order is on its way.',
        }),
        await subject.provider.sendFreeform(subject.sender, customer, {
          kind: 'media',
          mediaType: 'image',
          url: 'https://cdn.example.com/a.jpg',
          caption: 'The parcel',
          filename: 'a.jpg',
        }),
      ];
      for (const a of accepted) {
        expect(a.providerMessageId).toMatch(/\S/);
        expect(['queued', 'sent']).toContain(a.status);
      }
      expect(new Set(accepted.map((a) => a.providerMessageId)).size).toBe(3);
      expect((await subject.delivered()).map(digits)).toEqual([digits(customer), digits(customer), digits(customer)]);
    });

    it('refuses a send it will not carry with a readable reason, and delivers nothing', async () => {
      const refused = await subject.refusedSender();
      const send = subject.provider.sendFreeform(refused, customer, { kind: 'text', text: 'Hello' });
      await expect(send).rejects.toBeInstanceOf(ChatappProviderRefusal);
      await expect(send).rejects.toEqual(expect.objectContaining({ reason: expect.stringMatching(/\S/) }));
      expect(await subject.delivered()).toEqual([]);
    });

    it("reads a customer's file at most up to the allowed size, refusing a larger one", async () => {
      const media = subject.storedMedia?.();
      if (!media) {
        await expect(subject.provider.downloadMedia(subject.sender, 'media-1', 1024)).rejects.toBeInstanceOf(
          ChatappProviderRefusal,
        );
        return;
      }
      // The cap holds whether the provider announces the size (refused at once) or not (refused while reading).
      const readWhole = async (maxBytes: number) => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of (await subject.provider.downloadMedia(subject.sender, media.id, maxBytes)).body)
          chunks.push(chunk);
        return Buffer.concat(chunks);
      };
      expect(await readWhole(media.bytes.length)).toEqual(media.bytes);
      await expect(readWhole(media.bytes.length - 1)).rejects.toBeInstanceOf(ChatappProviderRefusal);
    });
  });
}
