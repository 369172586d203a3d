export { EventStreamController } from './event-stream-controller';
