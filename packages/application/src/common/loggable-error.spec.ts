import { loggableError, redactPathSecrets } from './loggable-error';

describe('loggableError', () => {
  it('keeps kind, message, code and stack, and drops what a failed query or request carries', () => {
    const failed = Object.assign(new Error('new row violates check constraint'), {
      code: '23514',
      query: 'INSERT INTO tools ...',
      parameters: ['Bearer sk_live_secret'],
      config: { headers: { Authorization: 'Bearer x' } },
    });

    const logged = loggableError(failed) as Record<string, unknown>;

    expect(Object.keys(logged).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(JSON.stringify(logged)).not.toContain('sk_live_secret');
    expect(logged).toMatchObject({ type: 'Error', message: 'new row violates check constraint', code: '23514' });
  });

  it('passes texts through and hides other objects', () => {
    expect(loggableError('lost the connection')).toBe('lost the connection');
    expect(loggableError({ password: 'x' })).toEqual({ type: 'non-error' });
  });
});

describe('redactPathSecrets', () => {
  it('replaces the token of every hook URL or path, in any case, and leaves other text alone', () => {
    const line =
      '{"msg":"POST https://vp.example.com/api/hooks/automations/aut_1/S3cr3t failed","path":"/API/HOOKS/AUTOMATIONS/aut_1/S3cr3t/"}';
    expect(redactPathSecrets(line)).toBe(
      '{"msg":"POST https://vp.example.com/api/hooks/automations/aut_1/[redacted] failed","path":"/API/HOOKS/AUTOMATIONS/aut_1/[redacted]/"}',
    );
    expect(redactPathSecrets('{"req":{"url":"/api/user/hooks/x"}}')).toBe('{"req":{"url":"/api/user/hooks/x"}}');
  });

  it('replaces the token of the sandbox checkout page, in any case, and leaves the page without one alone', () => {
    expect(redactPathSecrets('{"req":{"url":"/api/sandbox/billing/checkout/Ab_c-9"}}')).toBe(
      '{"req":{"url":"/api/sandbox/billing/checkout/[redacted]"}}',
    );
    expect(
      redactPathSecrets('https://vp.example.com/API/Sandbox/Billing/CHECKOUT/Ab_c-9/ and /api/hooks/automations/a/t'),
    ).toBe('https://vp.example.com/API/Sandbox/Billing/CHECKOUT/[redacted]/ and /api/hooks/automations/a/[redacted]');
    expect(redactPathSecrets('{"req":{"url":"/api/sandbox/billing/checkout/"}}')).toBe(
      '{"req":{"url":"/api/sandbox/billing/checkout/"}}',
    );
  });
});
