import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApi, eventually, TestApi, TestUser } from '@voiceplane/test-env';
import { pdfWithText } from '@voiceplane/adapter-documents/test-support/fixtures';

/** Knowledge bases and documents as the MCP server and the OpenClaw plugin call them, processed by the workers. */

const isoDate = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);
const INVALID = 'The given data was invalid.';

let t: TestApi;
let a: TestUser;
let b: TestUser;
let site: Server;
let siteUrl: string;
const siteHits: string[] = [];

const PAGES: Record<string, string> = {
  '/': '<html><body><h1>Acme</h1><p>Acme sells garden tools.</p><a href="/prices">Prices</a> <a href="/private/x">Staff</a> <a href="/contact#top">Contact</a> <a href="https://elsewhere.example/">Partner</a></body></html>',
  '/prices': '<html><body><p>The garden hose costs 25 euros.</p><a href="/contact">Contact</a></body></html>',
  '/contact': '<html><body><p>Call us on weekdays.</p></body></html>',
  '/private/x': '<html><body><p>Staff only secret.</p></body></html>',
};

beforeAll(async () => {
  t = await createTestApi();
  a = await t.createUser();
  b = await t.createUser();
  site = createServer((req, res) => {
    siteHits.push(req.url ?? '');
    if (req.url === '/robots.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    const page = PAGES[req.url ?? ''];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await t.close();
});

async function settled(user: TestUser, kbId: number, docId: number) {
  let res = await t.http.get(`/api/user/knowledgebases/${kbId}/documents/${docId}`).set(user.auth);
  await eventually(async () => {
    res = await t.http.get(`/api/user/knowledgebases/${kbId}/documents/${docId}`).set(user.auth);
    return res.body.data?.status !== 'processing';
  }, `document ${docId} no longer processing`);
  return res.body.data;
}

async function newKb(user: TestUser, name = 'FAQ') {
  const res = await t.http.post('/api/user/knowledgebases').set(user.auth).send({ name, description: 'Answers' });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

describe('knowledge bases (MCP server shapes)', () => {
  it('creates, reads, updates, lists and deletes a knowledge base', async () => {
    const created = await t.http
      .post('/api/user/knowledgebases')
      .set(a.auth)
      .send({ name: 'Product FAQ', description: 'What customers ask' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'Product FAQ',
        description: 'What customers ask',
        status: 'empty',
        documents_count: 0,
        assistants_count: 0,
        created_at: isoDate,
        updated_at: isoDate,
      },
    });
    const id = created.body.data.id;
    expect((await t.http.get(`/api/user/knowledgebases/${id}`).set(a.auth)).body.data.name).toBe('Product FAQ');
    const updated = await t.http
      .put(`/api/user/knowledgebases/${id}`)
      .set(a.auth)
      .send({ name: 'FAQ', description: null });
    expect(updated.body.data).toMatchObject({ name: 'FAQ', description: null });
    expect(
      (await t.http.get('/api/user/knowledgebases').set(a.auth)).body.data.map((k: { id: number }) => k.id),
    ).toContain(id);
    expect(await t.http.delete(`/api/user/knowledgebases/${id}`).set(a.auth)).toMatchObject({
      status: 200,
      body: { message: 'Knowledgebase deleted successfully' },
    });
    expect(await t.http.get(`/api/user/knowledgebases/${id}`).set(a.auth)).toMatchObject({
      status: 404,
      body: { error: 'Knowledgebase not found.' },
    });
  });

  it('refuses bad bodies with 422 and changes nothing', async () => {
    const res = await t.http
      .post('/api/user/knowledgebases')
      .set(a.auth)
      .send({ description: 'x'.repeat(1001) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(INVALID);
    expect(Object.keys(res.body.errors).sort()).toEqual(['description', 'name']);
    const kb = await newKb(a);
    const bad = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .send({ name: 'x', type: 'video' });
    expect(bad).toMatchObject({
      status: 422,
      body: { message: INVALID, errors: { type: ['The selected type is invalid.'] } },
    });
    const noUrl = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .send({ name: 'x', type: 'website', links: [{ link: 'ftp://x' }] });
    expect(noUrl.body.errors).toEqual({ 'links.0.link': ['The link must be a valid http or https URL.'] });
    expect((await t.http.get(`/api/user/knowledgebases/${kb}/documents`).set(a.auth)).body).toEqual({ data: [] });
  });

  it("answers another account's knowledge bases and documents exactly as missing ones", async () => {
    const kb = await newKb(a);
    const doc = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .send({ name: 'Refunds', type: 'text', content: 'Refunds within 14 days.' });
    const docId = doc.body.data.id;
    const notFound = { status: 404, body: { error: 'Knowledgebase not found.' } };
    expect(await t.http.get(`/api/user/knowledgebases/${kb}`).set(b.auth)).toMatchObject(notFound);
    expect(await t.http.put(`/api/user/knowledgebases/${kb}`).set(b.auth).send({ name: 'x' })).toMatchObject(notFound);
    expect(await t.http.delete(`/api/user/knowledgebases/${kb}`).set(b.auth)).toMatchObject(notFound);
    expect(await t.http.get(`/api/user/knowledgebases/${kb}/documents`).set(b.auth)).toMatchObject(notFound);
    expect(await t.http.post(`/api/user/knowledgebases/${kb}/documents`).set(b.auth).send({})).toMatchObject(notFound);
    const docNotFound = { status: 404, body: { error: 'Document not found.' } };
    expect(await t.http.get(`/api/user/knowledgebases/${kb}/documents/${docId}`).set(b.auth)).toMatchObject(
      docNotFound,
    );
    expect(
      await t.http.put(`/api/user/knowledgebases/${kb}/documents/${docId}`).set(b.auth).send({ name: 'x' }),
    ).toMatchObject(docNotFound);
    expect(await t.http.delete(`/api/user/knowledgebases/${kb}/documents/${docId}`).set(b.auth)).toMatchObject(
      docNotFound,
    );
    expect((await t.http.get(`/api/user/knowledgebases/${kb}/documents/${docId}`).set(a.auth)).status).toBe(200);
  });

  it('processes a text document in a worker, renames and deletes it', async () => {
    const kb = await newKb(a);
    const res = await t.http.post(`/api/user/knowledgebases/${kb}/documents`).set(a.auth).send({
      name: 'Refunds',
      type: 'text',
      description: 'policy',
      content: 'Refunds are paid within 14 days of the return.',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      knowledgebase_id: kb,
      name: 'Refunds',
      type: 'text',
      description: 'policy',
      status: 'processing',
      language: 'en',
    });
    const done = await settled(a, kb, res.body.data.id);
    expect(done).toMatchObject({ status: 'ready', failure_reason: null, chunks_count: 1 });
    expect((await t.http.get(`/api/user/knowledgebases/${kb}`).set(a.auth)).body.data).toMatchObject({
      status: 'active',
      documents_count: 1,
    });
    const renamed = await t.http
      .put(`/api/user/knowledgebases/${kb}/documents/${done.id}`)
      .set(a.auth)
      .send({ name: 'Money back' });
    expect(renamed.body.data).toMatchObject({ name: 'Money back', status: 'ready' });
    expect(await t.http.delete(`/api/user/knowledgebases/${kb}/documents/${done.id}`).set(a.auth)).toMatchObject({
      status: 200,
      body: { message: 'Document deleted successfully' },
    });
    expect((await t.http.get(`/api/user/knowledgebases/${kb}`).set(a.auth)).body.data.documents_count).toBe(0);
    const chunks = await t.db.dataSource.query(
      'SELECT count(*)::int AS n FROM knowledge_base_chunks WHERE document_id = $1',
      [done.id],
    );
    expect(chunks[0].n).toBe(0);
  });

  it('reads a website from its start page: same site only, within the link limit, as robots.txt allows', async () => {
    const kb = await newKb(a);
    const res = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .send({ name: 'Site', type: 'website', url: `${siteUrl}/`, relative_links_limit: 1 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'website', url: `${siteUrl}/`, links: [], relative_links_limit: 1 });
    expect(await settled(a, kb, res.body.data.id)).toMatchObject({ status: 'ready' });
    expect(siteHits.filter((h) => h !== '/robots.txt')).toEqual(['/', '/prices']);
    const listed = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .send({
        name: 'Pages',
        type: 'website',
        links: [{ link: `${siteUrl}/contact` }, { link: `${siteUrl}/private/x` }],
      });
    expect(await settled(a, kb, listed.body.data.id)).toMatchObject({
      status: 'ready',
      links: [{ link: `${siteUrl}/contact` }, { link: `${siteUrl}/private/x` }],
    });
    expect(siteHits).not.toContain('/private/x');
  });

  it('marks a document failed with the reason when nothing can be read', async () => {
    const kb = await newKb(a);
    const res = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .send({ name: 'Gone', type: 'website', url: `${siteUrl}/missing` });
    expect(await settled(a, kb, res.body.data.id)).toMatchObject({
      status: 'failed',
      failure_reason: `${siteUrl}/missing could not be read (404).`,
    });
    expect((await t.http.get(`/api/user/knowledgebases/${kb}`).set(a.auth)).body.data.status).toBe('failed');
  });
});

describe('documents as the OpenClaw plugin sends them', () => {
  it('takes type url and type links with a list of strings, and reads the list as {knowledgebases} under data', async () => {
    const kb = await t.http.post('/api/user/knowledgebases').set(a.auth).send({ name: 'Claw' });
    expect(kb.status).toBe(201);
    const url = await t.http
      .post(`/api/user/knowledgebases/${kb.body.data.id}/documents`)
      .set(a.auth)
      .send({ name: 'Home', type: 'url', url: `${siteUrl}/`, relative_links_limit: 0 });
    expect(url.body.data).toMatchObject({ type: 'website', relative_links_limit: 0 });
    const links = await t.http
      .post(`/api/user/knowledgebases/${kb.body.data.id}/documents`)
      .set(a.auth)
      .send({ name: 'Contact', type: 'links', links: [`${siteUrl}/contact`] });
    expect(links.body.data).toMatchObject({ type: 'website', links: [{ link: `${siteUrl}/contact` }] });
    const list = await t.http.get('/api/user/knowledgebases').set(a.auth);
    expect(list.body.data.find((k: { id: number }) => k.id === kb.body.data.id)).toMatchObject({
      name: 'Claw',
      documents_count: 2,
    });
  });
});

describe('file uploads', () => {
  it('reads an uploaded PDF and text file; refuses other formats', async () => {
    const kb = await newKb(a);
    const pdf = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .field('name', 'Prices')
      .field('type', 'file')
      .attach('file', pdfWithText('The garden hose costs 25 euros.'), {
        filename: 'prices.pdf',
        contentType: 'application/pdf',
      });
    expect(pdf.status).toBe(201);
    expect(pdf.body.data).toMatchObject({ type: 'file', file_name: 'prices.pdf', status: 'processing' });
    expect(await settled(a, kb, pdf.body.data.id)).toMatchObject({ status: 'ready', chunks_count: 1 });
    const txt = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .field('name', 'Notes')
      .field('type', 'txt')
      .attach('file', Buffer.from('Open on Sundays.'), 'notes.txt');
    expect(await settled(a, kb, txt.body.data.id)).toMatchObject({ status: 'ready' });
    const exe = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .field('name', 'Tool')
      .field('type', 'file')
      .attach('file', Buffer.from('MZ'), { filename: 'tool.exe', contentType: 'application/octet-stream' });
    expect(exe).toMatchObject({
      status: 422,
      body: { errors: { file: ['The file must be a PDF, DOCX, TXT, Markdown or HTML file.'] } },
    });
    const missing = await t.http
      .post(`/api/user/knowledgebases/${kb}/documents`)
      .set(a.auth)
      .send({ name: 'x', type: 'file' });
    expect(missing.body.errors).toEqual({
      file: ['The file field is required when type is file (multipart/form-data).'],
    });
  });
});

describe('plan limits', () => {
  it('refuses a knowledge base or a document beyond the plan', async () => {
    const small = await t.createUser({ plan: { max_knowledge_bases: 1, max_knowledge_base_documents: 1 } });
    const kb = await newKb(small);
    expect(await t.http.post('/api/user/knowledgebases').set(small.auth).send({ name: 'Second' })).toMatchObject({
      status: 422,
      body: { message: INVALID, errors: { name: ['Your plan allows at most 1 knowledge bases.'] } },
    });
    expect(
      (
        await t.http
          .post(`/api/user/knowledgebases/${kb}/documents`)
          .set(small.auth)
          .send({ name: 'a', type: 'text', content: 'one' })
      ).status,
    ).toBe(201);
    expect(
      await t.http
        .post(`/api/user/knowledgebases/${kb}/documents`)
        .set(small.auth)
        .send({ name: 'b', type: 'text', content: 'two' }),
    ).toMatchObject({
      status: 422,
      body: { errors: { name: ['Your plan allows at most 1 documents across your knowledge bases.'] } },
    });
  });
});
