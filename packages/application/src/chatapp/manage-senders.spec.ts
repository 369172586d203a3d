import {
  FakeStore,
  InMemorySandboxChatappState,
  InMemorySenderRepository,
  InMemoryTemplateRepository,
  SAMPLE_CATALOG,
} from '@voiceplane/adapter-fakes';
import { SandboxChatappProvider } from '@voiceplane/adapter-sandbox';
import { draftAssistant, err } from '@voiceplane/domain';
import { SecretCipher } from '../common';
import { WebhookDeliveries } from '../webhooks';
import { CreateTemplate } from './create-template';
import { ManageSenders } from './manage-senders';
import { ProviderSenders } from './provider-senders';
import { ChatappProvider } from './provider-ports';
import { RegisterSender } from './register-sender';
import { UpdateSender } from './update-sender';

const START = new Date('2026-11-27T10:00:00Z');
const CREDENTIALS = { phoneNumberId: 'pn-1', wabaId: 'waba-1', accessToken: 'token' };

/** ManageSenders on the fakes with the sandbox chat app, or the same app calling itself WhatsApp. */
function setup(providerName: 'sandbox' | 'whatsapp' = 'sandbox') {
  const store = new FakeStore(START);
  const senders = new InMemorySenderRepository();
  const templates = new InMemoryTemplateRepository(
    async (id) =>
      (await senders.list(1, 'all')).concat(await senders.list(2, 'all')).find((s) => s.id === id)?.userId ?? null,
  );
  const sandbox = new SandboxChatappProvider(new InMemorySandboxChatappState(), store.ids, () => store.clock.now());
  const provider: ChatappProvider =
    providerName === 'sandbox'
      ? sandbox
      : new Proxy(sandbox, { get: (t, k) => (k === 'name' ? 'whatsapp' : Reflect.get(t, k)) });
  const cipher = new SecretCipher(async () => 'k'.repeat(32));
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  const manage = new ManageSenders(
    senders,
    templates,
    store.assistants,
    {
      register: new RegisterSender(store.uow, senders, provider, cipher, store.clock),
      update: new UpdateSender(store.uow, senders, deliveries, store.clock),
      createTemplate: new CreateTemplate(
        store.uow,
        senders,
        templates,
        new ProviderSenders(senders, cipher),
        provider,
        store.clock,
      ),
    },
    provider,
  );
  const assistant = async (userId: number) => {
    const saved = await store.assistants.create(userId, draftAssistant({ name: 'Support' }, SAMPLE_CATALOG));
    if (saved === 'inbound_number_taken') throw new Error('taken');
    return saved.id;
  };
  const registration = (userId: number, assistantId: number | null = null) => ({
    userId,
    phoneNumber: `+49151${String(userId).padStart(8, '0')}`,
    displayName: 'Acme',
    assistantId,
    callingEnabled: false,
    statusWebhookUrl: null,
  });
  return { store, senders, manage, assistant, registration };
}

const unread = (): never => {
  throw new Error('read before the ownership check');
};

describe('ManageSenders', () => {
  it("registers with the caller's assistant only; the sandbox never reads credentials", async () => {
    const { store, manage, assistant, registration } = setup();
    const owner = await store.account();
    const stranger = await store.account();
    const strangers = await assistant(stranger.id);
    expect(await manage.register(registration(owner.id, strangers), unread)).toEqual(
      err({ code: 'assistant_invalid' }),
    );
    const created = await manage.register(registration(owner.id, await assistant(owner.id)), unread);
    expect(created.ok && created.value.status).toBe('online');
  });

  it("reads a WhatsApp sender's credentials, after the assistant is known to be the caller's, and keeps them sealed", async () => {
    const { store, senders, manage, registration } = setup('whatsapp');
    const owner = await store.account();
    let read = 0;
    const created = await manage.register(registration(owner.id), () => {
      read += 1;
      return CREDENTIALS;
    });
    if (!created.ok) throw new Error('not registered');
    expect(read).toBe(1);
    const sealed = await senders.sealedCredentials(created.value.id);
    expect(sealed).not.toBeNull();
    expect(sealed).not.toContain('token');
  });

  it('scopes a sender and its templates to the owner, reading nothing of the request for a stranger', async () => {
    const { store, manage, registration } = setup();
    const owner = await store.account();
    const stranger = await store.account();
    const created = await manage.register(registration(owner.id), unread);
    if (!created.ok) throw new Error('not registered');
    const id = created.value.id;

    expect(await manage.get(stranger.id, id)).toEqual(err('sender_not_found'));
    expect(await manage.update(stranger.id, id, unread)).toEqual(err('sender_not_found'));
    expect(await manage.templatesOf(stranger.id, id, unread)).toEqual(err('sender_not_found'));
    expect(await manage.createTemplate(stranger.id, id, unread)).toEqual(err({ code: 'sender_not_found' }));
    expect(await manage.list(stranger.id, 'all')).toEqual([]);

    const template = await manage.createTemplate(owner.id, id, () => ({
      name: 'welcome',
      language: 'en',
      category: 'utility',
      bodyText: 'Hello {{1}}',
      footerText: null,
    }));
    expect(template.ok && template.value.status).toBe('approved');
    const listed = await manage.templatesOf(owner.id, id, () => 'approved');
    expect(listed.ok && listed.value.map((t) => t.name)).toEqual(['welcome']);
    expect((await manage.list(owner.id, 'all')).map((s) => s.id)).toEqual([id]);
  });

  it("changes a sender only with the caller's assistant; clearing the assistant is always allowed", async () => {
    const { store, manage, assistant, registration } = setup();
    const owner = await store.account();
    const stranger = await store.account();
    const created = await manage.register(registration(owner.id), unread);
    if (!created.ok) throw new Error('not registered');
    const id = created.value.id;
    const strangers = await assistant(stranger.id);
    expect(await manage.update(owner.id, id, () => ({ assistantId: strangers }))).toEqual(err('assistant_invalid'));
    const own = await assistant(owner.id);
    const given = await manage.update(owner.id, id, () => ({ assistantId: own, displayName: 'Acme Support' }));
    expect(given.ok && [given.value.assistantId, given.value.displayName]).toEqual([own, 'Acme Support']);
    const cleared = await manage.update(owner.id, id, () => ({ assistantId: null }));
    expect(cleared.ok && cleared.value.assistantId).toBeNull();
  });
});
