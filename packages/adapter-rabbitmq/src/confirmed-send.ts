import { ConfirmChannel, Options } from 'amqplib';

/** Publishes and resolves once the broker has confirmed the message; rejects on nack or channel loss. */
export function publishConfirmed(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.publish(exchange, routingKey, content, options, (error: unknown) => (error ? reject(error) : resolve()));
    } catch (error) {
      // A closed channel throws instead of calling back.
      reject(error);
    }
  });
}
