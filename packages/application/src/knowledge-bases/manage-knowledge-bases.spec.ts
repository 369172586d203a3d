import { FakeStore, InMemoryKnowledgeBases } from '@voiceplane/adapter-fakes';
import { DEFAULT_PLAN, err } from '@voiceplane/domain';
import { ManageKnowledgeBases, PROCESS_DOCUMENT_JOB } from './manage-knowledge-bases';
import { NewDocument } from './ports';

const OWNER = 1;
const STRANGER = 2;
const TEXT: NewDocument = {
  name: 'FAQ',
  description: null,
  source: { type: 'text', content: 'Refunds within 14 days.' },
  language: 'en',
  sizeBytes: 23,
  file: null,
};

function setup() {
  const store = new FakeStore(new Date('2026-11-27T10:00:00Z'));
  const kbs = new InMemoryKnowledgeBases(store.clock);
  const manage = new ManageKnowledgeBases(
    store.uow,
    store.users,
    kbs.knowledgeBaseRepository,
    kbs.documentRepository,
    store.jobs,
    store.clock,
  );
  return { store, kbs, manage };
}

/** A request part that must not be read: reading it fails the test. */
const unread = (): never => {
  throw new Error('read before the ownership check');
};

describe('ManageKnowledgeBases', () => {
  it("scopes every read and write to the owner: a stranger's knowledge base is not found, and what came with the request is not read", async () => {
    const { manage } = setup();
    const kb = await manage.create(OWNER, DEFAULT_PLAN, { name: 'Shop', description: null });
    if (!kb.ok) throw new Error('not created');
    const id = kb.value.id;

    expect(await manage.get(STRANGER, id)).toEqual(err('not_found'));
    expect(await manage.update(STRANGER, id, unread)).toEqual(err('not_found'));
    expect(await manage.documentsOf(STRANGER, id)).toEqual(err('not_found'));
    expect(await manage.addDocument(STRANGER, DEFAULT_PLAN, id, unread)).toEqual(err('not_found'));
    expect(await manage.delete(STRANGER, id)).toEqual(err('not_found'));
    expect(await manage.list(STRANGER)).toEqual([]);

    const renamed = await manage.update(OWNER, id, () => ({ description: 'Refunds and returns' }));
    expect(renamed.ok && [renamed.value.name, renamed.value.description]).toEqual(['Shop', 'Refunds and returns']);
    expect((await manage.list(OWNER)).map((k) => k.id)).toEqual([id]);
  });

  it("stores a document of an owned knowledge base and schedules its processing; its id is the document's scope", async () => {
    const { store, manage } = setup();
    const kb = await manage.create(OWNER, DEFAULT_PLAN, { name: 'Shop', description: null });
    if (!kb.ok) throw new Error('not created');
    const added = await manage.addDocument(OWNER, DEFAULT_PLAN, kb.value.id, () => TEXT);
    if (!added.ok) throw new Error('not added');
    const doc = added.value.id;
    expect(store.jobs.jobs().map((j) => [j.kind, j.payload])).toEqual([[PROCESS_DOCUMENT_JOB, { document_id: doc }]]);

    expect(await manage.document(STRANGER, kb.value.id, doc)).toEqual(err('document_not_found'));
    expect(await manage.document(OWNER, kb.value.id + 1, doc)).toEqual(err('document_not_found'));
    expect(await manage.renameDocument(STRANGER, kb.value.id, doc, unread)).toEqual(err('document_not_found'));
    expect(await manage.deleteDocument(STRANGER, kb.value.id, doc)).toEqual(err('document_not_found'));

    const renamed = await manage.renameDocument(OWNER, kb.value.id, doc, () => ({ name: 'Returns' }));
    expect(renamed.ok && renamed.value.name).toBe('Returns');
    const listed = await manage.documentsOf(OWNER, kb.value.id);
    expect(listed.ok && listed.value.map((d) => d.id)).toEqual([doc]);
    expect(await manage.deleteDocument(OWNER, kb.value.id, doc)).toEqual({ ok: true, value: true });
    expect(await manage.document(OWNER, kb.value.id, doc)).toEqual(err('document_not_found'));
  });

  it("refuses past the plan's limits with the limit named", async () => {
    const { manage } = setup();
    const plan = { ...DEFAULT_PLAN, max_knowledge_bases: 1, max_knowledge_base_documents: 1 };
    const kb = await manage.create(OWNER, plan, { name: 'Shop', description: null });
    if (!kb.ok) throw new Error('not created');
    expect(await manage.create(OWNER, plan, { name: 'Second', description: null })).toEqual(
      err({ code: 'limit_reached', limit: 'knowledge_bases', max: 1 }),
    );
    expect((await manage.addDocument(OWNER, plan, kb.value.id, () => TEXT)).ok).toBe(true);
    expect(await manage.addDocument(OWNER, plan, kb.value.id, () => TEXT)).toEqual(
      err({ code: 'limit_reached', limit: 'documents', max: 1 }),
    );
  });
});
