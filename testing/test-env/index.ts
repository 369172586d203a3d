export { createTestDatabase, useTestDatabase, type TestDatabase, type TestDatabaseOptions } from './database';
export { describeWithAmqp, amqpUrl } from './amqp';
export { createTestApi, type TestApi, type TestUser } from './api';
export { TcpLink } from './tcp-link';
export { eventually, roomInTheMinute, withinCeiling, WAIT_CEILING_MS } from './wait';
export { describeWithBrowser, launchBrowser, chromiumPath } from './browser';
export { listenOnLoopback, openEventStream, type OpenEventStream, type StreamedEvent } from './event-stream';
