import {
  chooseIntegrationEnvironment,
  describeIntegrationEnvironment,
  requirementShortfalls,
} from './integration-environment';

const DATABASE_URL = 'postgres://root@127.0.0.1:5432/test';
const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

function probe(answer: boolean) {
  const calls = { count: 0 };
  const dockerAvailable = async () => {
    calls.count += 1;
    return answer;
  };
  return { calls, dockerAvailable };
}

describe('chooseIntegrationEnvironment', () => {
  it('uses both URLs when set and never asks for a Docker engine', async () => {
    const { calls, dockerAvailable } = probe(true);
    const choice = await chooseIntegrationEnvironment({ DATABASE_URL, AMQP_URL }, dockerAvailable);
    expect(choice).toEqual({ database: 'url', broker: 'url', required: false });
    expect(calls.count).toBe(0);
  });

  it('starts containers for both services when no URL is set and an engine answers', async () => {
    const choice = await chooseIntegrationEnvironment({}, probe(true).dockerAvailable);
    expect(choice).toEqual({ database: 'container', broker: 'container', required: false });
  });

  it('falls back to embedded PGlite and skipped RabbitMQ suites without URLs or an engine', async () => {
    const choice = await chooseIntegrationEnvironment({}, probe(false).dockerAvailable);
    expect(choice).toEqual({ database: 'embedded', broker: 'skipped', required: false });
  });

  it('chooses per service: a set URL wins, the missing one comes from a container', async () => {
    expect(await chooseIntegrationEnvironment({ DATABASE_URL }, probe(true).dockerAvailable)).toMatchObject({
      database: 'url',
      broker: 'container',
    });
    expect(await chooseIntegrationEnvironment({ AMQP_URL }, probe(true).dockerAvailable)).toMatchObject({
      database: 'container',
      broker: 'url',
    });
  });

  it('chooses per service: a set URL wins, the missing one falls back without an engine', async () => {
    expect(await chooseIntegrationEnvironment({ DATABASE_URL }, probe(false).dockerAvailable)).toMatchObject({
      database: 'url',
      broker: 'skipped',
    });
    expect(await chooseIntegrationEnvironment({ AMQP_URL }, probe(false).dockerAvailable)).toMatchObject({
      database: 'embedded',
      broker: 'url',
    });
  });

  it('treats an empty URL as unset', async () => {
    const choice = await chooseIntegrationEnvironment({ DATABASE_URL: '', AMQP_URL: '' }, probe(false).dockerAvailable);
    expect(choice).toMatchObject({ database: 'embedded', broker: 'skipped' });
  });

  it('reads REQUIRE_INTEGRATION=1 as required', async () => {
    expect(
      (await chooseIntegrationEnvironment({ REQUIRE_INTEGRATION: '1' }, probe(false).dockerAvailable)).required,
    ).toBe(true);
    expect(
      (await chooseIntegrationEnvironment({ REQUIRE_INTEGRATION: '0' }, probe(false).dockerAvailable)).required,
    ).toBe(false);
  });
});

describe('requirementShortfalls', () => {
  it('turns each fallback into a failure when integration is required', () => {
    expect(requirementShortfalls({ database: 'embedded', broker: 'skipped', required: true })).toEqual([
      'REQUIRE_INTEGRATION=1 but DATABASE_URL is not set and no Docker engine answers.',
      'REQUIRE_INTEGRATION=1 but AMQP_URL is not set and no Docker engine answers.',
    ]);
  });

  it('accepts URLs and containers when required, and anything when not', () => {
    expect(requirementShortfalls({ database: 'url', broker: 'container', required: true })).toEqual([]);
    expect(requirementShortfalls({ database: 'container', broker: 'url', required: true })).toEqual([]);
    expect(requirementShortfalls({ database: 'embedded', broker: 'skipped', required: false })).toEqual([]);
  });
});

describe('describeIntegrationEnvironment', () => {
  it('names both services in one line', () => {
    expect(describeIntegrationEnvironment({ database: 'url', broker: 'url', required: true })).toBe(
      'Integration environment: PostgreSQL from DATABASE_URL; RabbitMQ from AMQP_URL.',
    );
    expect(describeIntegrationEnvironment({ database: 'container', broker: 'container', required: false })).toBe(
      'Integration environment: PostgreSQL 15 container (testcontainers); RabbitMQ 3 container (testcontainers).',
    );
    expect(describeIntegrationEnvironment({ database: 'embedded', broker: 'skipped', required: false })).toBe(
      'Integration environment: embedded PGlite; RabbitMQ suites SKIPPED.',
    );
  });
});
