import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Listing a knowledge base's documents through the composed app: oldest first, each as `GET …/documents/{id}` shows it. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let t: TestApi;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser();
});
afterAll(async () => t.close());

describe('GET /api/user/knowledgebases/{id}/documents', () => {
  it('lists the documents oldest first, website and text alike, while they wait for the worker', async () => {
    const kb = (await t.http.post('/api/user/knowledgebases').set(owner.auth).send({ name: 'Support' }).expect(201))
      .body.data.id;
    const site = (
      await t.http
        .post(`/api/user/knowledgebases/${kb}/documents`)
        .set(owner.auth)
        .send({ name: 'Help centre', type: 'website', url: 'https://help.example.com/', relative_links_limit: 5 })
        .expect(201)
    ).body.data.id;
    const text = (
      await t.http
        .post(`/api/user/knowledgebases/${kb}/documents`)
        .set(owner.auth)
        .send({
          name: 'Refunds',
          type: 'text',
          description: 'policy',
          content: 'Refunds are paid within 14 days of the return.',
        })
        .expect(201)
    ).body.data.id;

    const res = await t.http.get(`/api/user/knowledgebases/${kb}/documents`).set(owner.auth);
    expect(res.status).toBe(200);
    const common = {
      knowledgebase_id: kb,
      file_name: null,
      language: 'en',
      status: 'processing',
      failure_reason: null,
      chunks_count: 0,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    };
    expect(res.body).toEqual({
      data: [
        {
          ...common,
          id: site,
          name: 'Help centre',
          description: null,
          type: 'website',
          url: 'https://help.example.com/',
          links: [],
          relative_links_limit: 5,
          size_bytes: expect.any(Number),
        },
        {
          ...common,
          id: text,
          name: 'Refunds',
          description: 'policy',
          type: 'text',
          url: null,
          links: [],
          relative_links_limit: null,
          size_bytes: expect.any(Number),
        },
      ],
    });
    for (const listed of res.body.data) {
      expect((await t.http.get(`/api/user/knowledgebases/${kb}/documents/${listed.id}`).set(owner.auth)).body).toEqual({
        data: listed,
      });
    }
  });
});
