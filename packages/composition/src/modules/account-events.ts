import { ACCOUNT_EVENT_TOPICS, AccountEventStreams, TOKENS } from '@voiceplane/application';
import { EventStreamController } from '@voiceplane/adapter-http';
import { PostgresAccountEventStore } from '@voiceplane/adapter-typeorm';
import { ApiModule } from './module';

/** Events a reader that reconnects within this time still receives (per account, the newest kept). */
const BACKLOG = { size: 200, maxAgeMs: 15 * 60_000 };

/**
 * The account event stream. Every api instance subscribes to the stream's topics under names of
 * its own (transient: the queues go with the instance), so each hears every event and serves the
 * streams it holds; a reader may reconnect to any instance and resume from the backlog there.
 */
export const accountEventsModule: ApiModule = ({ container: c, config, bus, database }) => {
  const ids = c.get(TOKENS.Ids);
  const instance = ids.token('', 12).toLowerCase();
  const streams = new AccountEventStreams(
    c.get(TOKENS.Clock),
    { perAccount: config.eventStreams.perAccount, heartbeatMs: config.eventStreams.heartbeatMs, backlog: BACKLOG },
    new PostgresAccountEventStore(database),
    instance,
    () => ids.token('esl_', 24),
  );
  c.bind(TOKENS.AccountEventStreams).toConstantValue(streams);
  c.bind(EventStreamController).toSelf().inSingletonScope();
  return {
    serving: [
      {
        name: 'account-event-streams',
        async start() {
          for (const [i, topic] of ACCOUNT_EVENT_TOPICS.entries()) {
            await bus.subscribe(topic, streams.receive, {
              consumer: `account-events.${instance}.${i}`,
              transient: true,
              maxRetries: 0,
            });
          }
        },
        async stop() {
          await streams.endAll();
        },
      },
    ],
    draining: [() => void streams.endAll()],
  };
};
