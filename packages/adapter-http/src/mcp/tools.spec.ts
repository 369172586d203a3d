import { toolNameOf } from './tool-names';
import { structuredContentOf, toolsFromDocument } from './tools';

/** Tool generation on a small document: which operations, their names, inputs, outputs and annotations. */
const bearer = [{ bearer: [] }];
const doc = {
  paths: {
    '/api/user/widgets': {
      get: {
        summary: 'List widgets',
        security: bearer,
        parameters: [{ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } }],
        responses: { 200: { content: { 'application/json': { examples: { success: { value: [{ id: 1 }] } } } } } },
      },
      post: {
        summary: 'Create a widget',
        security: bearer,
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/WidgetBody' } } } },
        responses: {
          201: {
            content: {
              'application/json': { examples: { success: { value: { data: { id: 1 }, note: null, count: 2 } } } },
            },
          },
        },
      },
    },
    '/api/user/widgets/{id}': {
      delete: { summary: 'Delete a widget', security: bearer, responses: { 200: {} } },
      put: { summary: 'Replace a widget', security: bearer, responses: { 200: {} } },
    },
    '/api/user/gadgets/{id}': {
      get: { summary: 'Alias', security: bearer, 'x-alias-of': { method: 'get', path: '/api/user/widgets/{id}' } },
    },
    '/api/admin/widgets': { get: { summary: 'Operators only', security: [{ admin: [] }] } },
    '/api/user/login': { post: { summary: 'Log in', security: [] } },
    '/api/sandbox/widgets/{id}/poke': { post: { summary: 'Poke', security: bearer } },
  },
  components: {
    schemas: {
      WidgetBody: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
        },
        required: ['name'],
      },
      Part: { type: 'object', properties: { sku: { type: 'string' } } },
      Unused: { type: 'object' },
    },
  },
};

describe('toolsFromDocument', () => {
  const tools = toolsFromDocument(doc);
  const byName = new Map(tools.map((t) => [t.tool.name, t]));

  it('takes user and sandbox operations, never aliases, admin routes or routes without a user token', () => {
    expect(tools.map((t) => `${t.method} ${t.path}`)).toEqual([
      'get /api/user/widgets',
      'post /api/user/widgets',
      'delete /api/user/widgets/{id}',
      'put /api/user/widgets/{id}',
      'post /api/sandbox/widgets/{id}/poke',
    ]);
    expect([...byName.keys()]).toEqual([
      'list_widgets',
      'create_widgets',
      'delete_widgets',
      'update_widgets',
      'create_sandbox_widgets_poke',
    ]);
  });

  it('merges path, query and body fields into one input schema, nested schemas under $defs', () => {
    expect(byName.get('create_widgets')!.tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        parts: { type: 'array', items: { $ref: '#/$defs/Part' } },
        idempotency_key: expect.objectContaining({ type: 'string', maxLength: 255 }),
      },
      required: ['name'],
      $defs: { Part: { type: 'object', properties: { sku: { type: 'string' } } } },
    });
    expect(byName.get('list_widgets')!.tool.inputSchema).toEqual({
      type: 'object',
      properties: { page: { type: 'integer', minimum: 1 } },
    });
    expect(byName.get('delete_widgets')!.tool.inputSchema.required).toEqual(['id']);
    expect(byName.get('create_widgets')!.idempotent).toBe(true);
    expect(byName.get('delete_widgets')!.idempotent).toBe(false);
  });

  it('reads the output schema loosely off the success example; bare arrays are carried as items', () => {
    expect(byName.get('create_widgets')!.tool.outputSchema).toEqual({
      type: 'object',
      properties: { data: { type: ['object', 'null'] }, note: {}, count: { type: ['number', 'null'] } },
    });
    expect(byName.get('list_widgets')!.tool.outputSchema).toEqual({
      type: 'object',
      properties: { items: { type: 'array' } },
      required: ['items'],
    });
    expect(byName.get('delete_widgets')!.tool.outputSchema).toEqual({ type: 'object' });
    expect(structuredContentOf([1, 2])).toEqual({ items: [1, 2] });
    expect(structuredContentOf({ a: 1 })).toEqual({ a: 1 });
  });

  it('annotates by method', () => {
    expect(byName.get('list_widgets')!.tool.annotations).toEqual(
      expect.objectContaining({ readOnlyHint: true, destructiveHint: false, idempotentHint: true }),
    );
    expect(byName.get('create_widgets')!.tool.annotations).toEqual(
      expect.objectContaining({ readOnlyHint: false, destructiveHint: false, idempotentHint: false }),
    );
    expect(byName.get('delete_widgets')!.tool.annotations).toEqual(
      expect.objectContaining({ readOnlyHint: false, destructiveHint: true, idempotentHint: true }),
    );
    expect(byName.get('update_widgets')!.tool.annotations).toEqual(
      expect.objectContaining({ destructiveHint: true, idempotentHint: true }),
    );
  });

  it('refuses two operations with one name', () => {
    const twice = {
      ...doc,
      paths: { '/api/user/a/{id}': { get: { security: bearer } }, '/api/user/a/{key}': { get: { security: bearer } } },
    };
    expect(() => toolsFromDocument(twice)).toThrow(/get_a/);
  });
});

describe('toolNameOf', () => {
  it('uses the product’s names from the table, and derives one for an operation not in it', () => {
    expect(toolNameOf('post', '/api/user/chatapp/send-freeform')).toBe('send_freeform_message');
    expect(toolNameOf('get', '/api/user/me')).toBe('get_account');
    expect(toolNameOf('get', '/api/user/things')).toBe('list_things');
    expect(toolNameOf('get', '/api/user/things/{id}')).toBe('get_things');
    expect(toolNameOf('patch', '/api/user/things/{id}')).toBe('update_things');
  });
});
