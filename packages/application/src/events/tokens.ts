import { token } from '../common';
import type { EventConsumer, JobHandler, JobScheduler, ProcessedEvents } from './ports';

export const EVENT_TOKENS = {
  JobScheduler: token<JobScheduler>('JobScheduler'),
  ProcessedEvents: token<ProcessedEvents>('ProcessedEvents'),
  /** Multi-bound: every capability's bus consumers, subscribed by the event backbone at start. */
  EventConsumer: token<EventConsumer>('EventConsumer'),
  /** Multi-bound: every capability's job handlers, run by the scheduler. */
  JobHandler: token<JobHandler>('JobHandler'),
} as const;
