import { gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

describe('transport conventions', () => {
  let t: TestApi;
  let u: TestUser;
  beforeAll(async () => {
    t = await createTestApi();
    u = await t.createUser();
  });
  afterAll(async () => t.close());

  it('health answers without auth', async () => {
    const res = await t.http.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '1.0.0' });
  });

  it('every response carries X-Request-Id and X-API-Version; a well-formed client id is echoed', async () => {
    const generated = await t.http.get('/api/user/me').set(u.auth);
    expect(generated.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9]{22}$/);
    expect(generated.headers['x-api-version']).toBe('1.0.0');
    expect(generated.headers['content-type']).toBe('application/json; charset=utf-8');
    const echoed = await t.http.get('/api/nowhere').set('X-Request-Id', 'trace-1:abc.def_ok');
    expect(echoed.headers['x-request-id']).toBe('trace-1:abc.def_ok');
    const replaced = await t.http.get('/api/health').set('X-Request-Id', 'has spaces and $');
    expect(replaced.headers['x-request-id']).toMatch(/^req_/);
    const unauth = await t.http.get('/api/user/me');
    expect(unauth.headers['x-request-id']).toMatch(/^req_/);
  });

  it('malformed JSON → 400 and nothing changes', async () => {
    const before = (await t.http.get('/api/user/api-keys').set(u.auth)).body.api_keys.length;
    const res = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed JSON body.' });
    expect((await t.http.get('/api/user/api-keys').set(u.auth)).body.api_keys.length).toBe(before);
  });

  it('a body over 1 MB → 413', async () => {
    const res = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request body too large.' });
  });

  it('a chunked upload over 1 MB is read to its end and answered 413 (never a reset)', async () => {
    const server = t.runtime.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as { port: number };
    try {
      for (let i = 0; i < 15; i++) {
        const answer = await postInPieces(port, u.auth.Authorization, 3 * 1024 * 1024);
        expect(answer).toEqual({ status: 413, body: { message: 'Request body too large.' } });
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('a non-JSON body → 415; an empty body with any content type is {}', async () => {
    const res = await t.http.post('/api/user/api-keys').set(u.auth).set('Content-Type', 'text/plain').send('name=ci');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Unsupported Media Type.' });
    const empty = await t.http.post('/api/user/api-keys').set(u.auth).set('Content-Type', 'text/plain').send('');
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ name: ['The name field is required.'] });
    const getWithJson = await t.http.get('/api/user/me').set(u.auth).set('Content-Type', 'application/json');
    expect(getWithJson.status).toBe(200);
  });

  it('a compressed body (Content-Encoding) → 415: bodies are not inflated; a blank JSON body is {}', async () => {
    const gz = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(gzipSync(Buffer.from('{"name":"zipped"}')));
    expect(gz.status).toBe(415);
    expect(gz.body).toEqual({ message: 'Unsupported Media Type.' });
    const blank = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .set('Content-Type', 'application/json')
      .send('  \n ');
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual({ name: ['The name field is required.'] });
  });

  it.each([['[1,2]'], ['"text"'], ['42']])('a JSON body that is not an object (%s) → 422 keyed body', async (raw) => {
    const res = await t.http.post('/api/user/api-keys').set(u.auth).set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The given data was invalid.',
      errors: { body: ['The request body must be a JSON object.'] },
    });
  });

  it('unknown fields are ignored', async () => {
    const res = await t.http
      .post('/api/user/api-keys')
      .set(u.auth)
      .send({ name: 'k', surprise: { deep: true } });
    expect(res.status).toBe(201);
    expect(res.body.api_key).not.toHaveProperty('surprise');
  });

  it('unknown route → 404 {message}; known path, other method → 405 with Allow', async () => {
    const nf = await t.http.get('/api/user/does-not-exist').set(u.auth);
    expect(nf.status).toBe(404);
    expect(nf.body).toEqual({ message: 'Not found.' });
    const na = await t.http.patch('/api/user/api-keys').set(u.auth).send({});
    expect(na.status).toBe(405);
    expect(na.body).toEqual({ message: 'Method not allowed.' });
    expect(na.headers.allow).toBe('GET, POST');
    const outside = await t.http.get('/elsewhere');
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual({ message: 'Not found.' });
  });

  it('serves the OpenAPI 3.1 document and the docs page', async () => {
    const doc = await t.http.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/api/user/api-keys'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreateApiKeyBody',
    );
    expect(doc.body.components.schemas.CreateApiKeyBody).toEqual({
      type: 'object',
      properties: { name: { type: 'string', maxLength: 255, description: 'Label; duplicates allowed' } },
      required: ['name'],
    });
    const page = await t.http.get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger');
  });

  it('helmet headers are set', async () => {
    const res = await t.http.get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

/** Streams `bytes` of JSON in 64 KB pieces (chunked, no Content-Length) and reads the answer. */
function postInPieces(port: number, authorization: string, bytes: number): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/user/api-keys',
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const piece = Buffer.alloc(64 * 1024, 'x');
    req.write('{"name":"');
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end('"}');
    };
    pump();
  });
}
