import { cli, ServerOptions } from '@livekit/agents';
import { PROVIDER_KEYS, readAgentEnv } from './env';

/**
 * `node apps/voice-agent/dist/main.js start` (or `dev`): registers the worker with LiveKit under
 * LIVEKIT_AGENT_NAME for explicit dispatch. Every call runs in its own process, loading
 * `livekit-agent.js`. A missing LiveKit or control-plane setting stops it here with the whole list;
 * missing provider keys are listed and only fail the calls that need them.
 */
const checked = readAgentEnv(process.env);
if (!checked.ok) {
  process.stderr.write(`voice agent: cannot start:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
if (checked.missingProviderKeys.length > 0) {
  process.stderr.write(
    `voice agent: not set: ${checked.missingProviderKeys.join(', ')} (of ${PROVIDER_KEYS.join(', ')}); calls whose assistant needs them end as configuration errors\n`,
  );
}
const { env } = checked;
cli.runApp(
  new ServerOptions({
    agent: require.resolve('./livekit-agent'),
    agentName: env.agentName,
    wsURL: env.livekit.url,
    apiKey: env.livekit.apiKey,
    apiSecret: env.livekit.apiSecret,
  }),
);
