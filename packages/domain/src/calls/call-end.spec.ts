import {
  appendedTranscript,
  CALL_TRANSCRIPT_LINES_MAX,
  callCharge,
  callDuration,
  extractedVariablesAtEnd,
  formatTranscript,
  shouldSendInboundWebhook,
  shouldSendPostCallWebhook,
} from './call-end';

describe('call end rules', () => {
  it('measures from answer to end, 0 when never answered, prefers a reported duration', () => {
    const end = new Date('2026-03-01T10:01:27.000Z');
    expect(callDuration(new Date('2026-03-01T10:00:00.000Z'), end)).toBe(87);
    expect(callDuration(null, end)).toBe(0);
    expect(callDuration(null, end, 12.4)).toBe(0);
    expect(callDuration(new Date('2026-03-01T10:00:00.000Z'), end, 12.4)).toBe(12);
  });

  it.each([
    [0, 0, 0],
    [1, 1, 0.1],
    [60, 1, 0.1],
    [61, 2, 0.2],
    [87, 2, 0.2],
    [600, 10, 1],
  ])('%p s → %p started minutes, $%p', (s, minutes, amount) => {
    expect(callCharge(s, 0.1)).toEqual({ minutes, amount });
  });

  it('formats transcripts for the webhook', () => {
    expect(
      formatTranscript([
        { role: 'assistant', content: 'Hello Ann, this is Acme.', at: 'x' },
        { role: 'customer', content: 'Hi!', at: 'y' },
      ]),
    ).toBe('AI: Hello Ann, this is Acme.\nCustomer: Hi!');
  });

  it.each([
    [{ isWebhookActive: true, webhookUrl: 'https://h.example', sendOnlyOnCompleted: true }, 'completed', true],
    [{ isWebhookActive: true, webhookUrl: 'https://h.example', sendOnlyOnCompleted: true }, 'busy', false],
    [{ isWebhookActive: true, webhookUrl: 'https://h.example', sendOnlyOnCompleted: false }, 'no-answer', true],
    [{ isWebhookActive: false, webhookUrl: 'https://h.example', sendOnlyOnCompleted: false }, 'completed', false],
    [{ isWebhookActive: true, webhookUrl: null, sendOnlyOnCompleted: false }, 'completed', false],
  ] as const)('post_call for %j ending %s: %s', (settings, status, expected) => {
    expect(shouldSendPostCallWebhook(settings, status)).toBe(expected);
  });

  it.each([
    [{ inboundWebhookUrl: 'https://in.example', sendOnlyOnCompleted: true }, 'inbound', 'completed', true],
    [{ inboundWebhookUrl: 'https://in.example', sendOnlyOnCompleted: true }, 'inbound', 'busy', false],
    [{ inboundWebhookUrl: 'https://in.example', sendOnlyOnCompleted: false }, 'inbound', 'failed', true],
    [{ inboundWebhookUrl: 'https://in.example', sendOnlyOnCompleted: false }, 'outbound', 'completed', false],
    [{ inboundWebhookUrl: null, sendOnlyOnCompleted: false }, 'inbound', 'completed', false],
  ] as const)('inbound webhook for %j, a %s call ending %s: %s', (settings, direction, status, expected) => {
    expect(shouldSendInboundWebhook(settings, direction, status)).toBe(expected);
  });
});

describe('extracted variables at the end', () => {
  const on = { enabled: true, fieldNames: ['appointment_date', 'budget'] };
  it.each([
    [
      'evaluation on, runtime values used as-is',
      on,
      { status: true, summary: 'Booked.', extra: 1 },
      { status: true, summary: 'Booked.', extra: 1 },
    ],
    [
      'evaluation on, nothing evaluated',
      on,
      undefined,
      { appointment_date: null, budget: null, status: false, summary: '' },
    ],
    ['evaluation off, runtime values dropped', { enabled: false, fieldNames: ['x'] }, { status: true }, {}],
    ['evaluation off, nothing sent', { enabled: false, fieldNames: [] }, undefined, {}],
  ] as const)('%s', (_name, evaluation, supplied, expected) => {
    expect(extractedVariablesAtEnd(evaluation, supplied)).toEqual(expected);
  });
});

describe('the lines a transcript keeps', () => {
  const lines = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({
      role: 'customer' as const,
      content: `${prefix} ${i}`,
      at: '2026-03-01T10:00:00.000Z',
    }));

  it('appends up to the cap and drops what is past it', () => {
    expect(appendedTranscript(lines(2, 'a'), lines(1, 'b')).map((l) => l.content)).toEqual(['a 0', 'a 1', 'b 0']);
    const full = appendedTranscript(lines(CALL_TRANSCRIPT_LINES_MAX - 1, 'a'), lines(3, 'b'));
    expect(full).toHaveLength(CALL_TRANSCRIPT_LINES_MAX);
    expect(full[full.length - 1].content).toBe('b 0');
    expect(appendedTranscript(full, lines(1, 'c'))).toHaveLength(CALL_TRANSCRIPT_LINES_MAX);
    expect(appendedTranscript([], lines(CALL_TRANSCRIPT_LINES_MAX + 5, 'd'))).toHaveLength(CALL_TRANSCRIPT_LINES_MAX);
  });
});
