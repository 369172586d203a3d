import { Message } from 'amqplib';
import { decodeBody, encodeBody, failedAttempts, failureOptions, lastError, publishOptions } from './message-codec';

const raw = (headers: Record<string, unknown> | undefined): Message =>
  ({
    content: Buffer.from('{}'),
    fields: {},
    properties: { headers, messageId: 'm-1', contentType: 'application/json', type: 'call.ended' },
  }) as unknown as Message;

describe('message codec', () => {
  const message = { id: 'm-1', topic: 'call.ended', payload: { seconds: 42 }, occurredAt: '2026-11-22T07:30:00.000Z' };

  it('round-trips a bus message and publishes it persistent, under its id', () => {
    expect(decodeBody(encodeBody(message))).toEqual({ ok: true, message });
    expect(publishOptions(message)).toMatchObject({
      persistent: true,
      messageId: 'm-1',
      contentType: 'application/json',
    });
  });

  it('refuses bodies that are not JSON or not bus messages', () => {
    expect(decodeBody(Buffer.from('not json'))).toMatchObject({ ok: false, reason: expect.stringMatching(/not JSON/) });
    expect(decodeBody(Buffer.from('{"id":1,"topic":"t","occurredAt":"x"}'))).toMatchObject({ ok: false });
  });

  it('counts failed attempts from its header, treating absent or nonsense values as none', () => {
    expect(failedAttempts(raw(undefined))).toBe(0);
    expect(failedAttempts(raw({ 'voiceplane-failed-attempts': 'nonsense' }))).toBe(0);
    expect(failedAttempts(raw({ 'voiceplane-failed-attempts': 2 }))).toBe(2);
  });

  it('marks a failed message with its attempts, a bounded error and the retry delay', () => {
    const options = failureOptions(raw(undefined), 3, 'x'.repeat(5_000), 250);
    expect(options).toMatchObject({ persistent: true, messageId: 'm-1', expiration: '250' });
    expect(failedAttempts(raw(options.headers))).toBe(3);
    expect(lastError(raw(options.headers))).toHaveLength(1_000);
    expect(failureOptions(raw(undefined), 1, 'boom')).not.toHaveProperty('expiration');
  });
});
