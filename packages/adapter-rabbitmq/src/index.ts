export { RabbitMqMessageBus, type RabbitMqMessageBusOptions, type DeadLetter } from './rabbitmq-message-bus';
export { type BusLogger } from './bus-logger';
export { deleteBusTopology, consumerQueues, type ConsumerQueues, type TopologyToDelete } from './topology';
