import { roleOfSource } from './message';

describe('message roles (CONTRACT A.10, §12.3)', () => {
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
