import { canonicalRoute, canonicalSearch } from './aliases';

describe('canonicalRoute', () => {
  it.each([
    ['GET', '/api/user/assistants/41', { method: 'GET', path: '/api/user/assistant/41' }],
    ['PATCH', '/api/user/assistants/41', { method: 'PUT', path: '/api/user/assistant/41' }],
    ['HEAD', '/api/user/phone-numbers/all', { method: 'HEAD', path: '/api/user/phone-numbers' }],
    ['POST', '/api/user/folders', { method: 'POST', path: '/api/user/folder' }],
    ['DELETE', '/api/user/folders/7', { method: 'DELETE', path: '/api/user/folder/7' }],
    ['POST', '/api/user/labels', { method: 'POST', path: '/api/user/label' }],
    // A conversation's integer id, as the canonical route takes it.
    [
      'POST',
      '/api/automate/conversations/880/disable-ai',
      { method: 'POST', path: '/api/user/conversations/880/disable-ai' },
    ],
    [
      'POST',
      '/api/automate/conversations/9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66/enable-ai',
      { method: 'POST', path: '/api/user/conversations/9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66/enable-ai' },
    ],
    ['PUT', '/api/user/labels/7', { method: 'PUT', path: '/api/user/label/7' }],
    ['DELETE', '/api/user/labels/7', { method: 'DELETE', path: '/api/user/label/7' }],
    [
      'GET',
      '/api/user/assistants/synthesizer-providers',
      { method: 'GET', path: '/api/user/assistants/providers', query: { kind: 'synthesizer' } },
    ],
    ['POST', '/api/user/whatsapp/send', { method: 'POST', path: '/api/user/chatapp/send' }],
    ['GET', '/api/user/whatsapp', { method: 'GET', path: '/api/user/chatapp' }],
    ['PATCH', '/api/user/assistants/41/', { method: 'PUT', path: '/api/user/assistant/41' }],
    ['POST', '/API/User/Folders/', { method: 'POST', path: '/api/user/folder' }],
    [
      'POST',
      '/api/automate/conversations/0b6e6b0e-4f7a-4c1e-9a49-3c1d6f2b9a10/disable-ai/',
      { method: 'POST', path: '/api/user/conversations/0b6e6b0e-4f7a-4c1e-9a49-3c1d6f2b9a10/disable-ai' },
    ],
    ['POST', '/API/USER/WHATSAPP/send', { method: 'POST', path: '/api/user/chatapp/send' }],
  ])('%s %s → its canonical route', (method, path, expected) => {
    expect(canonicalRoute(method, path)).toEqual(expect.objectContaining(expected));
  });

  it.each([
    ['GET', '/api/user/assistants/outbound'],
    ['GET', '/api/user/assistants/phone-numbers'],
    ['PATCH', '/api/user/assistants/get'],
    ['GET', '/api/user/folders'],
    ['GET', '/api/user/folders/7'],
    ['GET', '/api/user/labels'],
    ['DELETE', '/api/user/phone-numbers/all'],
    ['GET', '/api/user/whatsappx/send'],
  ])('%s %s is no alias (a literal is never read as an id; other methods keep their own routes)', (method, path) => {
    expect(canonicalRoute(method, path)).toBeNull();
  });
});

describe('canonicalSearch', () => {
  it("replaces the values the alias fixes and keeps the caller's other pairs byte for byte", () => {
    expect(canonicalSearch('?kind=transcriber&phone=+4915&x=%20', { kind: 'synthesizer' })).toBe(
      '?phone=+4915&x=%20&kind=synthesizer',
    );
    expect(canonicalSearch('', { kind: 'synthesizer' })).toBe('?kind=synthesizer');
    expect(canonicalSearch('?a=1', undefined)).toBe('?a=1');
    expect(canonicalSearch('?k%69nd=x', { kind: 'synthesizer' })).toBe('?kind=synthesizer');
  });
});
