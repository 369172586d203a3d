export { InProcessMessageBus, type InProcessMessageBusOptions } from './in-process-message-bus';
export { InProcessBroker, type DeadLetter } from './in-process-broker';
export { topicMatches } from './topic-pattern';
