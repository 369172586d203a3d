import { ChannelModel, ConfirmChannel } from 'amqplib';

/** A connection whose topology is declared and whose consumers are attached. */
export interface ReadyConnection {
  readonly model: ChannelModel;
  readonly publisher: ConfirmChannel;
}

interface Waiter {
  resolve(ready: ReadyConnection): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The ready connection of the moment, and a bounded wait for the next one during an outage. */
export class CurrentConnection {
  private ready?: ReadyConnection;
  private shutReason?: Error;
  private readonly waiters = new Set<Waiter>();

  get(): ReadyConnection | undefined {
    return this.ready;
  }

  set(ready: ReadyConnection): void {
    if (this.shutReason) return;
    this.ready = ready;
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(ready);
    }
    this.waiters.clear();
  }

  /** Forgets `lost` if it is still the current one (a newer connection may already have replaced it). */
  lose(lost: ChannelModel): void {
    if (this.ready?.model === lost) this.ready = undefined;
  }

  whenReady(timeoutMs: number): Promise<ReadyConnection> {
    if (this.shutReason) return Promise.reject(this.shutReason);
    if (this.ready) return Promise.resolve(this.ready);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new Error(`no connection to RabbitMQ within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Rejects every waiter now and every later one: the bus is closing. */
  shut(reason: Error): void {
    this.shutReason = reason;
    this.ready = undefined;
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(reason);
    }
    this.waiters.clear();
  }
}
