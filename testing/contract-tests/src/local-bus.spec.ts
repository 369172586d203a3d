import { InProcessBroker, InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { messageBusContract } from './message-bus.contract';

// One broker for the suite: it plays the part RabbitMQ plays for the other run, outliving each bus.
const broker = new InProcessBroker();

messageBusContract('in-process', () => new InProcessMessageBus({ broker }));
