import { BusMessage } from '@voiceplane/application';
import { Message, Options } from 'amqplib';

// Deliberately not `x-` prefixed: RabbitMQ reserves those for headers it manages itself.
const FAILED_ATTEMPTS_HEADER = 'voiceplane-failed-attempts';
const LAST_ERROR_HEADER = 'voiceplane-last-error';
// Headers travel in a 64 KiB frame table; a stack trace must not be able to fill it.
const MAX_ERROR_LENGTH = 1_000;

export function encodeBody(message: BusMessage): Buffer {
  const { id, topic, payload, occurredAt } = message;
  return Buffer.from(JSON.stringify({ id, topic, payload, occurredAt }));
}

export function publishOptions(message: BusMessage): Options.Publish {
  return { persistent: true, messageId: message.id, contentType: 'application/json', type: message.topic };
}

export type DecodedBody =
  | { readonly ok: true; readonly message: BusMessage }
  | { readonly ok: false; readonly reason: string };

export function decodeBody(content: Buffer): DecodedBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.toString('utf8'));
  } catch (error) {
    return { ok: false, reason: `body is not JSON: ${(error as Error).message}` };
  }
  if (!isBusMessage(parsed)) return { ok: false, reason: 'body is not a bus message (id, topic, occurredAt)' };
  return { ok: true, message: parsed };
}

/** How many times handlers have already failed on this message. */
export function failedAttempts(raw: Message): number {
  const value = Number(raw.properties.headers?.[FAILED_ATTEMPTS_HEADER] ?? 0);
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

export function lastError(raw: Message): string {
  return String(raw.properties.headers?.[LAST_ERROR_HEADER] ?? '');
}

/** Options for re-sending a failed message to its retry or dead-letter queue. */
export function failureOptions(raw: Message, attempts: number, error: string, expirationMs?: number): Options.Publish {
  return {
    persistent: true,
    messageId: raw.properties.messageId,
    contentType: raw.properties.contentType,
    type: raw.properties.type,
    headers: { [FAILED_ATTEMPTS_HEADER]: attempts, [LAST_ERROR_HEADER]: error.slice(0, MAX_ERROR_LENGTH) },
    ...(expirationMs === undefined ? {} : { expiration: String(Math.round(expirationMs)) }),
  };
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isBusMessage(value: unknown): value is BusMessage {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.id === 'string' && typeof candidate.topic === 'string' && typeof candidate.occurredAt === 'string'
  );
}
