import { loggableError } from './loggable-error';

describe('loggableError', () => {
  it('keeps kind, message, code and stack, and drops what a failed query or request carries', () => {
    const failed = Object.assign(new Error('new row violates check constraint'), {
      code: '23514', query: 'INSERT INTO tools ...', parameters: ['Bearer sk_live_secret'], config: { headers: { Authorization: 'Bearer x' } },
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
