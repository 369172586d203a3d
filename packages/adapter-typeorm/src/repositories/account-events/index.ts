export { PostgresAccountEventStore } from './account-event-store';
