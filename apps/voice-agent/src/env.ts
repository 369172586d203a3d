import { DEFAULT_AGENT_NAME, type RecordingStorage } from '@voiceplane/adapter-livekit';
import { z } from 'zod';

/** The agent's settings, read once from the environment at start. */
export interface AgentEnv {
  readonly agentName: string;
  readonly controlPlaneUrl: string;
  readonly runtimeToken: string;
  readonly livekit: { readonly url: string; readonly apiKey: string; readonly apiSecret: string };
  /** Provider keys; a missing one only fails the calls whose assistant needs that provider. */
  readonly keys: {
    readonly deepgram: string | null;
    readonly elevenlabs: string | null;
    readonly cartesia: string | null;
    readonly openai: string | null;
  };
  /** An OpenAI-compatible server instead of OpenAI (self-hosted models, tests). */
  readonly openaiBaseUrl: string | null;
  /**
   * Other addresses of the speech providers (regional endpoints, self-hosted Deepgram, stand-ins);
   * null: the plugin's own default.
   */
  readonly baseUrls: {
    readonly deepgram: string | null;
    readonly elevenlabs: string | null;
    readonly cartesia: string | null;
  };
  /** Trunk that dials colleagues for warm transfers when the call's line is not a SIP trunk (the control plane's setting). */
  readonly outboundTrunkId: string | null;
  /**
   * Where recordings go (the control plane's S3 media store, the same variables) and the public
   * address users fetch them from; null: assistants with `record` get no recording.
   */
  readonly recording: { readonly storage: RecordingStorage; readonly publicBaseUrl: string } | null;
}

/** Without these the worker cannot register or report a single call. */
const REQUIRED = [
  'LIVEKIT_URL',
  'LIVEKIT_API_KEY',
  'LIVEKIT_API_SECRET',
  'CONTROL_PLANE_URL',
  'RUNTIME_TOKEN',
] as const;
/** Each serves some assistants only: missing ones are listed, and those calls end as configuration errors. */
export const PROVIDER_KEYS = ['DEEPGRAM_API_KEY', 'ELEVEN_API_KEY', 'CARTESIA_API_KEY', 'OPENAI_API_KEY'] as const;

export type EnvCheck =
  | { readonly ok: true; readonly env: AgentEnv; readonly missingProviderKeys: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

/** A variable's value, trimmed; unset or blank: null. */
const text = z
  .string()
  .optional()
  .transform((v) => v?.trim() || null);
const needed = (name: (typeof REQUIRED)[number]) => text.refine((v) => v !== null, `${name} is not set`);
const OPTIONAL = [
  'LIVEKIT_AGENT_NAME',
  ...PROVIDER_KEYS,
  'OPENAI_BASE_URL',
  'DEEPGRAM_BASE_URL',
  'ELEVENLABS_BASE_URL',
  'CARTESIA_BASE_URL',
  'LIVEKIT_OUTBOUND_TRUNK_ID',
  'MEDIA_STORE',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'PUBLIC_BASE_URL',
] as const;

/** Every variable the agent reads; all problems are reported at once. */
const AGENT_ENV = z.object({
  ...(Object.fromEntries(REQUIRED.map((name) => [name, needed(name)])) as Record<
    (typeof REQUIRED)[number],
    ReturnType<typeof needed>
  >),
  CONTROL_PLANE_URL: needed('CONTROL_PLANE_URL').refine(
    (v) => v === null || /^https?:\/\/[^/]+/.test(v),
    'CONTROL_PLANE_URL must be an http(s) URL',
  ),
  ...(Object.fromEntries(OPTIONAL.map((name) => [name, text])) as Record<(typeof OPTIONAL)[number], typeof text>),
});

export function readAgentEnv(source: Readonly<Record<string, string | undefined>>): EnvCheck {
  const checked = AGENT_ENV.safeParse(source);
  if (!checked.success) {
    // The missing variables first, then the malformed ones.
    const messages = checked.error.issues.map((i) => i.message);
    const missing = messages.filter((m) => m.endsWith(' is not set'));
    return { ok: false, problems: [...missing, ...messages.filter((m) => !missing.includes(m))] };
  }
  const vars: Readonly<Record<string, string | null>> = checked.data;
  const value = (name: string): string | null => vars[name] ?? null;
  return {
    ok: true,
    missingProviderKeys: PROVIDER_KEYS.filter((name) => value(name) === null),
    env: {
      agentName: value('LIVEKIT_AGENT_NAME') ?? DEFAULT_AGENT_NAME,
      controlPlaneUrl: value('CONTROL_PLANE_URL')!.replace(/\/+$/, ''),
      runtimeToken: value('RUNTIME_TOKEN')!,
      livekit: {
        url: value('LIVEKIT_URL')!,
        apiKey: value('LIVEKIT_API_KEY')!,
        apiSecret: value('LIVEKIT_API_SECRET')!,
      },
      keys: {
        deepgram: value('DEEPGRAM_API_KEY'),
        elevenlabs: value('ELEVEN_API_KEY'),
        cartesia: value('CARTESIA_API_KEY'),
        openai: value('OPENAI_API_KEY'),
      },
      openaiBaseUrl: value('OPENAI_BASE_URL'),
      baseUrls: {
        deepgram: value('DEEPGRAM_BASE_URL'),
        elevenlabs: value('ELEVENLABS_BASE_URL'),
        cartesia: value('CARTESIA_BASE_URL'),
      },
      outboundTrunkId: value('LIVEKIT_OUTBOUND_TRUNK_ID'),
      recording: recordingOf(value),
    },
  };
}

/** LiveKit's egress can only upload to a bucket: recording needs `MEDIA_STORE=s3` and the public address. */
function recordingOf(value: (name: string) => string | null): AgentEnv['recording'] {
  const bucket = value('S3_BUCKET');
  const publicBaseUrl = value('PUBLIC_BASE_URL');
  if (value('MEDIA_STORE') !== 's3' || bucket === null || publicBaseUrl === null) return null;
  const endpoint = value('S3_ENDPOINT');
  const pathStyle = value('S3_FORCE_PATH_STYLE');
  return {
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    storage: {
      bucket,
      region: value('S3_REGION') ?? 'us-east-1',
      endpoint,
      accessKeyId: value('S3_ACCESS_KEY_ID'),
      secretAccessKey: value('S3_SECRET_ACCESS_KEY'),
      // As the control plane reads it: path-style by default for S3-compatible servers.
      forcePathStyle: pathStyle === null ? endpoint !== null : ['1', 'true', 'yes'].includes(pathStyle.toLowerCase()),
    },
  };
}
