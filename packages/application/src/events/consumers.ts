import { BusHandler } from '../ports';
import { UnitOfWork } from '../ports';
import { ProcessedEvents } from './ports';

/**
 * Wraps a handler whose effects are database writes so each event takes effect once: the
 * processed-event row and the effects commit together, and a redelivered event finds the row and
 * does nothing. A handler that throws rolls both back, so the bus retries it.
 */
export function oncePerEvent(
  uow: UnitOfWork,
  processed: ProcessedEvents,
  consumer: string,
  handle: BusHandler,
): BusHandler {
  return (message) =>
    uow.transaction(async () => {
      if (!(await processed.record(consumer, message.id))) return;
      await handle(message);
    });
}
