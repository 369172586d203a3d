import { documentPath, fullestOf, notJson, shapeMismatches, shapeOf, VARIANTS } from './success-examples';

describe('success examples against observed answers', () => {
  it('spells express paths as the document does', () => {
    expect(documentPath('/api/user/tools/:id/')).toBe('/api/user/tools/{id}');
    expect(documentPath('/api/user/knowledgebases/:id/documents/:document_id')).toBe(
      '/api/user/knowledgebases/{id}/documents/{document_id}',
    );
  });

  it('accepts an example with the shape of the answers, whatever its values', () => {
    const example = { data: [{ id: 1, name: 'a', note: null, tags: [] }], total: 1 };
    const answers = [
      { data: [{ id: 7, name: 'b', note: 'x', tags: ['t'] }], total: 9 },
      { data: [], total: 0 },
    ];
    expect(shapeMismatches(example, answers)).toEqual([]);
  });

  it('names a key no answer has, a key every answer has, and a changed type', () => {
    const example = { data: { id: 1, colour: 'teal', count: '2' } };
    const answers = [{ data: { id: 2, color: 'teal', count: 2 } }];
    expect(shapeMismatches(example, answers)).toEqual([
      '$.data.colour: in the example, in no answer',
      '$.data.color: in every answer, not in the example',
      '$.data.count: string in the example, number in the answers',
    ]);
  });

  it('holds an example of one variant to what the variants have in common', () => {
    const answers = [
      { type: 'http', endpoint: 'https://x' },
      { type: 'automation', automation_id: 'aut_1' },
    ];
    expect(shapeMismatches({ type: 'http', endpoint: 'https://y' }, answers)).toEqual([]);
    expect(shapeMismatches({ endpoint: 'https://y' }, answers)).toEqual([
      '$.type: in every answer, not in the example',
    ]);
  });

  it("holds objects keyed by the user's own names to being objects, not to their keys", () => {
    const example = { data: [{ id: 1, values: { status: 'open', name: 'Ann' } }] };
    expect(shapeMismatches(example, [{ data: [{ id: 2, values: { sku: 'A1' } }] }])).toEqual([]);
    expect(shapeMismatches(example, [{ data: [{ id: 2, values: 'A1' }] }])).toEqual([
      '$.data[0].values: object in the example, string in the answers',
    ]);
  });

  it("holds a webhook delivery's event payload to being an object, whatever the event", () => {
    const example = { data: { id: 'dlv_1', payload: { id: 4812, duration: 87 } } };
    expect(shapeMismatches(example, [{ data: { id: 'dlv_2', payload: { conversation_uuid: 'c' } } }])).toEqual([]);
  });

  it('shows an answer that is not JSON by its content type, held to not being JSON', () => {
    expect(notJson('audio/ogg; codecs=opus')).toBe('<audio/ogg, not JSON>');
    expect(shapeMismatches(notJson('audio/ogg'), [notJson('image/jpeg')])).toEqual([]);
    expect(shapeMismatches(notJson('audio/ogg'), [{ data: 1 }])).toEqual([
      '$: string in the example, object in the answers',
    ]);
  });

  it('records the answer that shows the most of the shape: not an empty page, not a field left null', () => {
    const empty = { data: [], total: 0 };
    const bare = { data: [{ id: 1, note: null }], total: 1 };
    const full = { data: [{ id: 2, note: 'x' }], total: 1 };
    expect([...shapeOf(full)]).toEqual([
      '$:object',
      '$.data:array',
      '$.data[]:object',
      '$.data[].id:number',
      '$.data[].note:string',
      '$.total:number',
    ]);
    expect(fullestOf([empty, bare, full])).toBe(full);
    expect(fullestOf([bare, { data: [{ id: 3, note: null }], total: 2 }])).toBe(bare);
    expect(shapeOf({ values: { a: 1, b: 2 } }).size).toBe(shapeOf({ values: { c: 1 } }).size);
  });

  it("holds an operation's listed variants to the types of the keys they share, and the rest of it to its keys", () => {
    const example = { data: { id: 1, tool_calls: [{ name: 'kb', query: 'refunds', passages: [] }] } };
    const answers = [{ data: { id: 2, tool_calls: [{ name: 'crm', request: { url: 'https://x' } }] } }];
    expect(shapeMismatches(example, answers, '$', VARIANTS['GET /api/user/calls/{id}'])).toEqual([]);
    expect(
      shapeMismatches(
        example,
        [{ data: { id: 2, tool_calls: [{ name: 7 }] } }],
        '$',
        VARIANTS['GET /api/user/calls/{id}'],
      ),
    ).toEqual(['$.data.tool_calls[0].name: string in the example, number in the answers']);
    expect(shapeMismatches({ ...example, total: 1 }, answers, '$', VARIANTS['GET /api/user/calls/{id}'])).toEqual([
      '$.total: in the example, in no answer',
    ]);
  });
});
