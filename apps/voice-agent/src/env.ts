import { DEFAULT_AGENT_NAME, type RecordingStorage } from '@voiceplane/adapter-livekit';

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

export function readAgentEnv(source: Readonly<Record<string, string | undefined>>): EnvCheck {
  const value = (name: string): string | null => {
    const v = source[name]?.trim();
    return v ? v : null;
  };
  const problems = REQUIRED.filter((name) => value(name) === null).map((name) => `${name} is not set`);
  const controlPlaneUrl = value('CONTROL_PLANE_URL');
  if (controlPlaneUrl !== null && !/^https?:\/\/[^/]+/.test(controlPlaneUrl))
    problems.push('CONTROL_PLANE_URL must be an http(s) URL');
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    missingProviderKeys: PROVIDER_KEYS.filter((name) => value(name) === null),
    env: {
      agentName: value('LIVEKIT_AGENT_NAME') ?? DEFAULT_AGENT_NAME,
      controlPlaneUrl: controlPlaneUrl!.replace(/\/+$/, ''),
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
