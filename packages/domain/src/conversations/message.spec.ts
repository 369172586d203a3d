import { roleOfSource } from './message';

describe('message roles', () => {
  it.each([
    ['customer', 'user'],
    ['ai', 'assistant'],
    ['api', 'assistant'],
    ['automation', 'assistant'],
    ['system', 'system'],
  ] as const)('%s → %s', (source, role) => {
    expect(roleOfSource(source)).toBe(role);
  });
});
