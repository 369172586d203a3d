import { NewOutboxEvent, Outbox } from '@voiceplane/application';

export interface RecordedOutboxEvent extends NewOutboxEvent {
  readonly id: string;
}

/** Keeps every event added, in order, for a test to read. */
export class InMemoryOutbox implements Outbox {
  private readonly added: RecordedOutboxEvent[] = [];

  async add(events: readonly NewOutboxEvent[]): Promise<string[]> {
    return events.map((e) => {
      const id = `evt_${String(this.added.length + 1).padStart(22, '0')}`;
      this.added.push({ id, topic: e.topic, payload: copy(e.payload) });
      return id;
    });
  }

  events(topic?: string): RecordedOutboxEvent[] {
    return this.added.filter((e) => topic === undefined || e.topic === topic);
  }
}

/** The real outbox stores payloads as JSON: what a test reads back is what a consumer would get. */
function copy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}
