/** An event raised by a state change, to be published after its transaction commits. */
export interface NewOutboxEvent {
  /** Bus routing key, e.g. `assistant.webhook_disabled`, `call.ended`. */
  readonly topic: string;
  readonly payload: unknown;
}

/**
 * The transactional outbox: `add` must be called inside `UnitOfWork.transaction` together with
 * the state change, so the event exists if and only if the change committed.
 */
export interface Outbox {
  /** Returns the event ids (`evt_…`), which consumers de-duplicate on. */
  add(events: readonly NewOutboxEvent[]): Promise<string[]>;
}
