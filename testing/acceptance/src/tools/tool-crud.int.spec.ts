import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** CRUD of mid-call tools through the composed app. */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INVALID = 'The given data was invalid.';
const NOT_FOUND = { message: 'Tool not found' };

const validBody = {
  name: 'check_order',
  description: "Look up the status of a customer's order by its number",
  endpoint: 'https://api.example.com/orders/{order_id}?aid={{assistant_id}}',
  method: 'get',
  headers: [{ name: 'X-Key', value: 'abc' }],
  static_fields: [{ key: 'source', value: 'voice' }, { key: 'empty' }],
  schema: [
    { name: 'order_id', type: 'string', description: 'The order number', required: true },
    { name: 'note', type: 'string', description: 'Anything else' },
  ],
};

let t: TestApi;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  // No background workers: nothing here needs them.
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ plan: { max_mid_call_tools: 1000 } });
  stranger = await t.createUser();
});
afterAll(async () => {
  await t.close();
});

async function createTool(user: TestUser, body: Record<string, unknown> = validBody): Promise<Record<string, unknown>> {
  const res = await t.http.post('/api/user/tools').set(user.auth).send(body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Automation tools are made by the automations capability, never through the API. */
async function insertAutomationTool(userId: number): Promise<number> {
  const rows = await t.db.dataSource.query(
    `INSERT INTO tools (user_id, name, description, type, endpoint, method, automation_id)
     VALUES ($1, 'lookup_prices', 'Look up a price', 'automation', NULL, NULL, 'aut_0123456789012345678901') RETURNING id`,
    [userId],
  );
  return Number(rows[0].id);
}

describe('POST /api/user/tools', () => {
  it('creates an http tool with the defaults filled in and answers the whole record', async () => {
    const res = await t.http.post('/api/user/tools').set(owner.auth).send(validBody);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Tool created successfully',
      data: {
        id: expect.any(Number),
        name: 'check_order',
        description: "Look up the status of a customer's order by its number",
        type: 'http',
        endpoint: 'https://api.example.com/orders/{order_id}?aid={{assistant_id}}',
        method: 'GET',
        body_format: 'json',
        timeout: 10,
        headers: [{ name: 'X-Key', value: 'abc' }],
        static_fields: [
          { key: 'source', value: 'voice' },
          { key: 'empty', value: '' },
        ],
        schema: [
          { name: 'order_id', type: 'string', description: 'The order number', required: true },
          { name: 'note', type: 'string', description: 'Anything else', required: false },
        ],
        automation_id: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const stored = await t.http.get(`/api/user/tools/${res.body.data.id}`).set(owner.auth);
    // A bare object, as the MCP server's get_mid_call_tool reads it.
    expect(stored.body).toEqual(res.body.data);
  });

  it('accepts the smallest body and the explicit options', async () => {
    const small = await createTool(owner, {
      name: '_x',
      description: 'd',
      endpoint: 'http://api.example.com',
      method: 'PATCH',
    });
    expect(small).toMatchObject({
      name: '_x',
      method: 'PATCH',
      body_format: 'json',
      timeout: 10,
      headers: [],
      static_fields: [],
      schema: [],
      type: 'http',
    });
    const full = await createTool(owner, {
      ...validBody,
      type: 'http',
      method: 'Post',
      body_format: 'form',
      timeout: '30',
    });
    expect(full).toMatchObject({ method: 'POST', body_format: 'form', timeout: 30 });
  });

  const long = (n: number) => 'a'.repeat(n);
  it.each([
    ['name missing', { name: undefined }, { name: ['The name field is required.'] }],
    [
      'name with a dash',
      { name: 'check-order' },
      { name: ['Tool name must contain only letters, digits and underscores and start with a letter or underscore.'] },
    ],
    [
      'name starting with a digit',
      { name: '1order' },
      { name: ['Tool name must contain only letters, digits and underscores and start with a letter or underscore.'] },
    ],
    ['name of 65 characters', { name: long(65) }, { name: ['The name may not be greater than 64 characters.'] }],
    ['name not a string', { name: 12 }, { name: ['The name must be a string.'] }],
    ['description missing', { description: '  ' }, { description: ['The description field is required.'] }],
    [
      'description of 256 characters',
      { description: long(256) },
      { description: ['The description may not be greater than 255 characters.'] },
    ],
    ['type automation', { type: 'automation' }, { type: ['Only http tools can be created through the API.'] }],
    ['endpoint missing', { endpoint: undefined }, { endpoint: ['The endpoint field is required.'] }],
    ['endpoint not a URL', { endpoint: 'api.example.com/orders' }, { endpoint: ['The endpoint must be a valid URL.'] }],
    [
      'endpoint of 2049 characters',
      { endpoint: `https://api.example.com/${long(2025)}` },
      { endpoint: ['The endpoint may not be greater than 2048 characters.'] },
    ],
    [
      'placeholder in the host',
      { endpoint: 'https://{{tenant}}.example.com/orders' },
      { endpoint: ['Placeholders are not allowed in the scheme or host of the endpoint.'] },
    ],
    [
      'placeholder in the scheme',
      { endpoint: '{{scheme}}://api.example.com/orders' },
      { endpoint: ['Placeholders are not allowed in the scheme or host of the endpoint.'] },
    ],
    [
      'ftp endpoint',
      { endpoint: 'ftp://api.example.com/orders' },
      { endpoint: ['The endpoint must be a public http or https URL.'] },
    ],
    [
      'credentials in the endpoint',
      { endpoint: 'https://user:secret@api.example.com/' },
      { endpoint: ['The endpoint must be a public http or https URL.'] },
    ],
    ['method missing', { method: undefined }, { method: ['The method field is required.'] }],
    ['method unknown', { method: 'FETCH' }, { method: ['The selected method is invalid.'] }],
    ['body format unknown', { body_format: 'xml' }, { body_format: ['The selected body format is invalid.'] }],
    ['timeout 0', { timeout: 0 }, { timeout: ['The timeout must be between 1 and 30.'] }],
    ['timeout 31', { timeout: 31 }, { timeout: ['The timeout must be between 1 and 30.'] }],
    ['timeout fractional', { timeout: 1.5 }, { timeout: ['The timeout must be an integer.'] }],
    ['headers not an array', { headers: { 'X-Key': 'abc' } }, { headers: ['The headers must be an array.'] }],
    [
      '21 headers',
      { headers: Array.from({ length: 21 }, (_, i) => ({ name: `X-${i}`, value: 'v' })) },
      { headers: ['The headers may not have more than 20 items.'] },
    ],
    [
      'header name with a space',
      { headers: [{ name: 'X Key', value: 'v' }] },
      { 'headers.0.name': ['The headers.0.name format is invalid.'] },
    ],
    [
      'header name of 257 characters',
      { headers: [{ name: long(257), value: 'v' }] },
      { 'headers.0.name': ['The headers.0.name may not be greater than 256 characters.'] },
    ],
    [
      'header without a value',
      { headers: [{ name: 'X-Key' }] },
      { 'headers.0.value': ['The headers.0.value field is required.'] },
    ],
    [
      'header value of 2049 characters',
      { headers: [{ name: 'X-Key', value: long(2049) }] },
      { 'headers.0.value': ['The headers.0.value may not be greater than 2048 characters.'] },
    ],
    ['header not an object', { headers: ['X-Key: abc'] }, { 'headers.0': ['The headers.0 must be an object.'] }],
    [
      'static field without a key',
      { static_fields: [{ value: 'v' }] },
      { 'static_fields.0.key': ['The static_fields.0.key field is required.'] },
    ],
    [
      'static key of 65 characters',
      { static_fields: [{ key: long(65) }] },
      { 'static_fields.0.key': ['The static_fields.0.key may not be greater than 64 characters.'] },
    ],
    [
      'static value of 2049 characters',
      { static_fields: [{ key: 'k', value: long(2049) }] },
      { 'static_fields.0.value': ['The static_fields.0.value may not be greater than 2048 characters.'] },
    ],
    [
      'repeated static key',
      { static_fields: [{ key: 'k' }, { key: 'k', value: 'v' }] },
      { 'static_fields.1.key': ['The static_fields.1.key has already been taken.'] },
    ],
    [
      '51 static fields',
      { static_fields: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}` })) },
      { static_fields: ['The static fields may not have more than 50 items.'] },
    ],
    [
      'schema item name with a dot',
      { schema: [{ name: 'order.id', type: 'string', description: 'abc' }] },
      { 'schema.0.name': ['The schema.0.name format is invalid.'] },
    ],
    [
      'schema item without a name',
      { schema: [{ type: 'string', description: 'abc' }] },
      { 'schema.0.name': ['The schema.0.name field is required.'] },
    ],
    [
      'schema item type integer',
      { schema: [{ name: 'n', type: 'integer', description: 'abc' }] },
      { 'schema.0.type': ['The selected schema.0.type is invalid.'] },
    ],
    [
      'schema item description of 2',
      { schema: [{ name: 'n', type: 'number', description: 'ab' }] },
      { 'schema.0.description': ['The schema.0.description must be between 3 and 255 characters.'] },
    ],
    [
      'schema item required yes',
      { schema: [{ name: 'n', type: 'boolean', description: 'abc', required: 'yes' }] },
      { 'schema.0.required': ['The schema.0.required field must be true or false.'] },
    ],
    [
      'repeated parameter name',
      {
        schema: [
          { name: 'n', type: 'float', description: 'abc' },
          { name: 'n', type: 'string', description: 'abc' },
        ],
      },
      { 'schema.1.name': ['The schema.1.name has already been taken.'] },
    ],
    [
      '51 schema items',
      { schema: Array.from({ length: 51 }, (_, i) => ({ name: `p${i}`, type: 'string', description: 'abc' })) },
      { schema: ['The schema may not have more than 50 items.'] },
    ],
  ])('refuses %s', async (_case, overrides, errors) => {
    const res = await t.http
      .post('/api/user/tools')
      .set(owner.auth)
      .send({ ...validBody, ...overrides });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: INVALID, errors });
  });

  it('reports every failing field at once, the domain rules included', async () => {
    const res = await t.http
      .post('/api/user/tools')
      .set(owner.auth)
      .send({
        ...validBody,
        name: 'bad name',
        timeout: 0,
        endpoint: 'https://{{host}}/x',
        schema: [
          { name: 'a', type: 'string', description: 'abc' },
          { name: 'a', type: 'string', description: 'abc' },
        ],
      });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: INVALID,
      errors: {
        timeout: ['The timeout must be between 1 and 30.'],
        name: ['Tool name must contain only letters, digits and underscores and start with a letter or underscore.'],
        endpoint: ['Placeholders are not allowed in the scheme or host of the endpoint.'],
        'schema.1.name': ['The schema.1.name has already been taken.'],
      },
    });
  });

  it('refuses a body that is not an object', async () => {
    const res = await t.http
      .post('/api/user/tools')
      .set(owner.auth)
      .set('Content-Type', 'application/json')
      .send('[1]');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: INVALID, errors: { body: ['The request body must be a JSON object.'] } });
  });

  it('stops at the plan limit, counting automation tools too, and only after the fields are valid', async () => {
    const user = await t.createUser({ plan: { max_mid_call_tools: 2 } });
    await createTool(user);
    await insertAutomationTool(user.id);
    const invalid = await t.http
      .post('/api/user/tools')
      .set(user.auth)
      .send({ ...validBody, timeout: 99 });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({ message: INVALID, errors: { timeout: ['The timeout must be between 1 and 30.'] } });
    const refused = await t.http.post('/api/user/tools').set(user.auth).send(validBody);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: 'You have reached your plan limit of 2 mid call tools. Please upgrade your plan to create more tools.',
    });
    expect((await t.http.get('/api/user/tools').set(user.auth)).body).toHaveLength(2);
  });

  it('lets concurrent creates take the last slot only once', async () => {
    const user = await t.createUser({ plan: { max_mid_call_tools: 3 } });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => t.http.post('/api/user/tools').set(user.auth).send(validBody)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 422, 422, 422]);
    expect((await t.http.get('/api/user/tools').set(user.auth)).body).toHaveLength(3);
  });
});

describe('GET /api/user/tools and /api/user/tools/{id}', () => {
  let user: TestUser;
  const ids: number[] = [];
  let automationId: number;
  beforeAll(async () => {
    user = await t.createUser();
    for (const name of ['first', 'second', 'third'])
      ids.push((await createTool(user, { ...validBody, name })).id as number);
    automationId = await insertAutomationTool(user.id);
    await createTool(stranger, { ...validBody, name: 'not_yours' });
  });

  it("answers a bare array newest first, as the MCP server's list_mid_call_tools reads it, paged through the Link header", async () => {
    // The MCP server sends no query at all.
    const all = await t.http.get('/api/user/tools').set(user.auth);
    expect(all.status).toBe(200);
    expect(all.body.map((d: { id: number }) => d.id)).toEqual([automationId, ...[...ids].reverse()]);
    expect(all.headers['x-total-count']).toBe('4');
    expect(all.headers.link).toBe(
      '</api/user/tools?page=1&per_page=100>; rel="first", </api/user/tools?page=1&per_page=100>; rel="last"',
    );
    const res = await t.http.get('/api/user/tools?per_page=2').set(user.auth);
    expect(res.body).toEqual([
      expect.objectContaining({ id: automationId }),
      expect.objectContaining({ id: ids[2], name: 'third' }),
    ]);
    expect(res.headers.link).toBe(
      '</api/user/tools?page=1&per_page=2>; rel="first", </api/user/tools?page=2&per_page=2>; rel="last", </api/user/tools?page=2&per_page=2>; rel="next"',
    );
    const second = await t.http.get('/api/user/tools?per_page=2&page=2&type=').set(user.auth);
    expect(second.body.map((d: { name: string }) => d.name)).toEqual(['second', 'first']);
    expect(second.headers.link).toBe(
      '</api/user/tools?type=&page=1&per_page=2>; rel="first", </api/user/tools?type=&page=2&per_page=2>; rel="last", </api/user/tools?type=&page=1&per_page=2>; rel="prev"',
    );
    const past = await t.http.get('/api/user/tools?page=9').set(user.auth);
    expect([past.body, past.headers['x-total-count']]).toEqual([[], '4']);
  });

  it('filters by type and shows automation tools with their link', async () => {
    const automation = await t.http.get('/api/user/tools?type=automation').set(user.auth);
    expect(automation.body).toEqual([
      {
        id: automationId,
        name: 'lookup_prices',
        description: 'Look up a price',
        type: 'automation',
        endpoint: null,
        method: null,
        body_format: 'json',
        timeout: 10,
        headers: [],
        static_fields: [],
        schema: [],
        automation_id: 'aut_0123456789012345678901',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    ]);
    const http = await t.http.get('/api/user/tools?type=http').set(user.auth);
    expect(http.body.map((d: { id: number }) => d.id)).toEqual([...ids].reverse());
  });

  it.each([
    ['type=ftp', { type: ['The selected type is invalid.'] }],
    ['per_page=101', { per_page: ['The per page must be between 1 and 100.'] }],
    ['page=0', { page: ['The page must be at least 1.'] }],
  ])('refuses ?%s', async (query, errors) => {
    const res = await t.http.get(`/api/user/tools?${query}`).set(user.auth);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: INVALID, errors });
  });

  it("shows another user's tools to nobody else", async () => {
    const res = await t.http.get('/api/user/tools').set(stranger.auth);
    expect(res.body.map((d: { name: string }) => d.name)).not.toContain('first');
    expect((await t.http.get(`/api/user/tools/${ids[0]}`).set(stranger.auth)).body).toEqual(NOT_FOUND);
  });

  it.each(['999999', 'abc', '0', '-1', '1.5'])('answers 404 for id %s', async (id) => {
    const res = await t.http.get(`/api/user/tools/${id}`).set(user.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('requires a token', async () => {
    const res = await t.http.get('/api/user/tools');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });
});

describe('PUT /api/user/tools/{id}', () => {
  it('changes only what was sent, replaces arrays and keeps the rest', async () => {
    const tool = await createTool(owner);
    const res = await t.http
      .put(`/api/user/tools/${tool.id}`)
      .set(owner.auth)
      .send({
        timeout: 5,
        headers: [{ name: 'Authorization', value: 'Bearer {{token}}' }],
        schema: [],
      });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Tool updated successfully',
      data: {
        ...tool,
        timeout: 5,
        headers: [{ name: 'Authorization', value: 'Bearer {{token}}' }],
        schema: [],
        updated_at: expect.stringMatching(ISO),
      },
    });
    expect(res.body.data.updated_at >= (tool.updated_at as string)).toBe(true);
    const cleared = await t.http
      .put(`/api/user/tools/${tool.id}`)
      .set(owner.auth)
      .send({ static_fields: [], method: 'delete', endpoint: 'https://api.example.com/v2/{order_id}' });
    expect(cleared.body.data).toMatchObject({
      static_fields: [],
      method: 'DELETE',
      endpoint: 'https://api.example.com/v2/{order_id}',
      headers: [{ name: 'Authorization', value: 'Bearer {{token}}' }],
    });
  });

  it('accepts an empty body and changes nothing', async () => {
    const tool = await createTool(owner);
    const res = await t.http.put(`/api/user/tools/${tool.id}`).set(owner.auth).send({});
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...tool, updated_at: expect.stringMatching(ISO) });
  });

  it.each([
    [{ timeout: 0 }, { timeout: ['The timeout must be between 1 and 30.'] }],
    [{ name: '' }, { name: ['The name field must have a value.'] }],
    [{ name: null }, { name: ['The name field must have a value.'] }],
    [
      { endpoint: 'https://{{host}}/' },
      { endpoint: ['Placeholders are not allowed in the scheme or host of the endpoint.'] },
    ],
    [{ type: 'automation' }, { type: ['Only http tools can be created through the API.'] }],
    [
      { static_fields: [{ key: 'a' }, { key: 'a' }] },
      { 'static_fields.1.key': ['The static_fields.1.key has already been taken.'] },
    ],
  ])('refuses %p', async (body, errors) => {
    const tool = await createTool(owner);
    const res = await t.http.put(`/api/user/tools/${tool.id}`).set(owner.auth).send(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: INVALID, errors });
    expect((await t.http.get(`/api/user/tools/${tool.id}`).set(owner.auth)).body).toEqual(tool);
  });

  it('ignores endpoint, method, body format and type on an automation tool, and applies the rest', async () => {
    const id = await insertAutomationTool(owner.id);
    const res = await t.http.put(`/api/user/tools/${id}`).set(owner.auth).send({
      endpoint: 'not even a url',
      method: 'FETCH',
      body_format: 'xml',
      type: 'http',
      description: 'Prices by product',
      timeout: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'automation',
      endpoint: null,
      method: null,
      body_format: 'json',
      description: 'Prices by product',
      timeout: 3,
    });
  });

  it("answers 404 for another user's tool, even with an invalid body, and leaves it alone", async () => {
    const tool = await createTool(owner);
    for (const body of [{ name: 'stolen' }, { timeout: 0 }]) {
      const res = await t.http.put(`/api/user/tools/${tool.id}`).set(stranger.auth).send(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect((await t.http.put('/api/user/tools/abc').set(owner.auth).send({})).body).toEqual(NOT_FOUND);
    expect((await t.http.get(`/api/user/tools/${tool.id}`).set(owner.auth)).body.name).toBe('check_order');
  });
});

describe('DELETE /api/user/tools/{id}', () => {
  it('deletes the tool and detaches it from every assistant', async () => {
    const tool = await createTool(owner);
    const other = await createTool(owner, { ...validBody, name: 'other_tool' });
    const assistant = await t.http
      .post('/api/user/assistant')
      .set(owner.auth)
      .send({ name: 'Support', tool_ids: [tool.id, other.id] });
    expect(assistant.status).toBe(201);
    const assistantId = assistant.body.data.id;

    const res = await t.http.delete(`/api/user/tools/${tool.id}`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Tool deleted successfully' });
    expect((await t.http.get(`/api/user/tools/${tool.id}`).set(owner.auth)).status).toBe(404);
    const after = await t.http.get(`/api/user/assistant/${assistantId}`).set(owner.auth);
    expect(after.body.data.tool_ids).toEqual([other.id]);
    const again = await t.http.delete(`/api/user/tools/${tool.id}`).set(owner.auth);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });

  it("answers 404 for another user's tool and keeps it", async () => {
    const tool = await createTool(owner);
    const res = await t.http.delete(`/api/user/tools/${tool.id}`).set(stranger.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    expect((await t.http.get(`/api/user/tools/${tool.id}`).set(owner.auth)).status).toBe(200);
    expect((await t.http.delete('/api/user/tools/x1').set(owner.auth)).body).toEqual(NOT_FOUND);
  });
});
