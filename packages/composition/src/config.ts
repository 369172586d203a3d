import { resolve } from 'node:path';
import { CallMinutePrices, ChatappPrices, DEFAULT_CALL_MINUTE_PRICES, DEFAULT_CHATAPP_PRICES, E164_PATTERN } from '@voiceplane/domain';

export type Provider<T extends string> = T;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicBaseUrl: string;
  readonly databaseUrl: string | null;
  readonly amqpUrl: string | null;
  readonly dataDir: string;
  readonly adminToken: string | null;
  readonly runtimeToken: string | null;
  readonly allowPrivateTargets: boolean;
  readonly requireHttpsTargets: boolean;
  readonly logLevel: string;
  readonly sessionTtlHours: number;
  readonly demoPassword: string | null;
  readonly secretsKey: string | null;
  /** USD per started call minute (configuration with these defaults). */
  readonly callMinutePrices: CallMinutePrices;
  readonly voiceRuntime: 'sandbox' | 'livekit';
  readonly sipProvisioner: 'sandbox' | 'livekit';
  readonly numberInventory: 'sandbox' | 'twilio';
  readonly chatappProvider: 'sandbox' | 'whatsapp_cloud';
  /** USD per chat-app message (configuration with these defaults). */
  readonly chatappPrices: ChatappPrices;
  readonly livekit: {
    readonly url: string; readonly apiKey: string; readonly apiSecret: string; readonly sipEgressIp: string | null;
    /** Agent registered for explicit dispatch. */
    readonly agentName: string;
    /** Outbound trunk for lines that are not the account's SIP trunks (purchased numbers, the platform line). */
    readonly outboundTrunkId: string | null;
    /** E.164 line for assistants without a number; needs `outboundTrunkId`. */
    readonly platformCallerNumber: string | null;
  } | null;
  readonly twilio: { readonly accountSid: string; readonly authToken: string; readonly baseUrl: string } | null;
  /** Set while CHATAPP_PROVIDER=whatsapp_cloud: the ingress secrets and the Graph API root. */
  readonly whatsapp: {
    readonly appSecret: string; readonly verifyToken: string; readonly graphBaseUrl: string;
    /** The SIP server WhatsApp dials for calls (our LiveKit SIP host); null: calling is set up in WhatsApp Manager. */
    readonly sipServerHost: string | null;
  } | null;
  /** Who writes the assistant's chat replies: the sandbox's fixed text, an OpenAI-compatible API, or nobody (`off`). */
  readonly replyGenerator: 'sandbox' | 'openai' | 'off';
  /** Set while REPLY_GENERATOR=openai: an OpenAI-compatible Chat Completions API. */
  readonly openai: { readonly baseUrl: string; readonly apiKey: string; readonly defaultModel: string } | null;
  /** Set when EMBEDDINGS_MODEL is: knowledge-base passages are embedded and searched by meaning too. */
  readonly embeddings: { readonly baseUrl: string; readonly apiKey: string; readonly model: string } | null;
  readonly billingProvider: 'sandbox' | 'stripe';
  /** Set exactly when `billingProvider` is `stripe`. `apiBase` only points the client at a local stub in tests. */
  readonly stripe: { readonly secretKey: string; readonly webhookSecret: string; readonly apiBase: string | null } | null;
  /** Webhook triggers per minute per automation (60). */
  readonly automationHookRatePerMinute: number;
  /** Where copies of inbound chat-app media are kept: files under the data directory, or an S3-compatible bucket. */
  readonly mediaStore: MediaStoreConfig;
  /** Days a copy of inbound media is kept before the file is deleted (90). */
  readonly mediaRetentionDays: number;
  /**
   * Crash tests only (FAULT_HOLD_IDEMPOTENT_ANSWERS=1): a request with an Idempotency-Key never
   * answers once its effect committed, so the process can be killed at exactly that point.
   */
  readonly faultHoldIdempotentAnswers: boolean;
}

export type MediaStoreConfig =
  | { readonly kind: 'files'; readonly dir: string }
  | {
      readonly kind: 's3'; readonly bucket: string; readonly region: string; readonly endpoint: string | null;
      readonly accessKeyId: string | null; readonly secretAccessKey: string | null; readonly forcePathStyle: boolean;
    };

export class ConfigError extends Error {}

/** Reads and checks every setting once, at start; a bad value stops the process with a clear list. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const problems: string[] = [];
  const str = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : null;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = str(name);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    return n;
  };
  const bool = (name: string) => {
    const raw = str(name);
    if (raw === null) return false;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be 1/0 or true/false (got "${raw}")`);
    return false;
  };
  function oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const raw = str(name);
    if (raw === null) return fallback;
    if (!values.includes(raw as T)) problems.push(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
    return raw as T;
  }
  // Money has at most four decimals everywhere in the ledger; a price finer than that could not be charged.
  const price = (name: string, fallback: number) => {
    const raw = str(name);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!/^\d+(\.\d{1,4})?$/.test(raw) || n > 100) problems.push(`${name} must be a price in USD from 0 to 100 with at most 4 decimals (got "${raw}")`);
    return n;
  };
  const url = (name: string, schemes: string[]) => {
    const raw = str(name);
    if (raw === null) return null;
    try {
      const u = new URL(raw);
      if (!schemes.includes(u.protocol)) problems.push(`${name} must use ${schemes.join(' or ')}`);
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
    return raw;
  };
  const token = (name: string) => {
    const raw = str(name);
    if (raw !== null && raw.length < 16) problems.push(`${name} must be at least 16 characters`);
    return raw;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  const voiceRuntime = oneOf('VOICE_RUNTIME', ['sandbox', 'livekit'] as const, 'sandbox');
  const sipProvisioner = oneOf('SIP_PROVISIONER', ['sandbox', 'livekit'] as const, 'sandbox');
  const numberInventory = oneOf('NUMBER_INVENTORY', ['sandbox', 'twilio'] as const, 'sandbox');
  const chatappProvider = oneOf('CHATAPP_PROVIDER', ['sandbox', 'whatsapp_cloud'] as const, 'sandbox');

  let livekit: Config['livekit'] = null;
  if (voiceRuntime === 'livekit' || sipProvisioner === 'livekit') {
    const lkUrl = url('LIVEKIT_URL', ['http:', 'https:', 'ws:', 'wss:']);
    const apiKey = str('LIVEKIT_API_KEY');
    const apiSecret = str('LIVEKIT_API_SECRET');
    if (!lkUrl || !apiKey || !apiSecret) problems.push('LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET are required when a LiveKit provider is selected');
    const outboundTrunkId = str('LIVEKIT_OUTBOUND_TRUNK_ID');
    const platformCallerNumber = str('PLATFORM_CALLER_NUMBER');
    if (platformCallerNumber !== null && !E164_PATTERN.test(platformCallerNumber)) problems.push('PLATFORM_CALLER_NUMBER must be an E.164 number (+ and 7–15 digits)');
    if (platformCallerNumber !== null && outboundTrunkId === null) problems.push('PLATFORM_CALLER_NUMBER needs LIVEKIT_OUTBOUND_TRUNK_ID, the trunk its calls leave through');
    livekit = {
      url: lkUrl ?? '', apiKey: apiKey ?? '', apiSecret: apiSecret ?? '', sipEgressIp: str('LIVEKIT_SIP_EGRESS_IP'),
      agentName: str('LIVEKIT_AGENT_NAME') ?? 'voiceplane-assistant', outboundTrunkId, platformCallerNumber,
    };
  }
  let twilio: Config['twilio'] = null;
  if (numberInventory === 'twilio') {
    const accountSid = str('TWILIO_ACCOUNT_SID');
    const authToken = str('TWILIO_AUTH_TOKEN');
    if (!accountSid || !authToken) problems.push('TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are required when NUMBER_INVENTORY=twilio');
    twilio = { accountSid: accountSid ?? '', authToken: authToken ?? '', baseUrl: url('TWILIO_BASE_URL', ['http:', 'https:']) ?? 'https://api.twilio.com' };
  }

  let whatsapp: Config['whatsapp'] = null;
  if (chatappProvider === 'whatsapp_cloud') {
    const appSecret = str('WHATSAPP_APP_SECRET');
    const verifyToken = str('WHATSAPP_VERIFY_TOKEN');
    if (!appSecret || !verifyToken) problems.push('WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN are required when CHATAPP_PROVIDER=whatsapp_cloud');
    whatsapp = {
      appSecret: appSecret ?? '', verifyToken: verifyToken ?? '',
      graphBaseUrl: url('WHATSAPP_GRAPH_BASE_URL', ['http:', 'https:']) ?? 'https://graph.facebook.com/v21.0',
      sipServerHost: str('WHATSAPP_SIP_SERVER_HOST'),
    };
  }
  const replyGenerator = oneOf('REPLY_GENERATOR', ['sandbox', 'openai', 'off'] as const, 'sandbox');
  // The sandbox's fixed text must never reach a real customer: a real chat app needs an explicit choice.
  if (chatappProvider === 'whatsapp_cloud' && replyGenerator === 'sandbox') {
    problems.push(`REPLY_GENERATOR=sandbox${str('REPLY_GENERATOR') === null ? ' (the default)' : ''} would answer real customers with the sandbox's fixed text when CHATAPP_PROVIDER=whatsapp_cloud: set REPLY_GENERATOR=openai (with OPENAI_API_KEY), or REPLY_GENERATOR=off for no AI replies at all`);
  }
  let openai: Config['openai'] = null;
  if (replyGenerator === 'openai') {
    const apiKey = str('OPENAI_API_KEY');
    if (!apiKey) problems.push('OPENAI_API_KEY is required when REPLY_GENERATOR=openai');
    openai = {
      baseUrl: url('OPENAI_BASE_URL', ['http:', 'https:']) ?? 'https://api.openai.com/v1',
      apiKey: apiKey ?? '',
      defaultModel: str('OPENAI_MODEL') ?? 'gpt-4o-mini',
    };
  }

  // Embeddings are optional: without a model, knowledge bases are searched by full text alone.
  let embeddings: Config['embeddings'] = null;
  const embeddingsModel = str('EMBEDDINGS_MODEL');
  if (embeddingsModel !== null) {
    const apiKey = str('EMBEDDINGS_API_KEY') ?? str('OPENAI_API_KEY');
    if (!apiKey) problems.push('EMBEDDINGS_API_KEY (or OPENAI_API_KEY) is required when EMBEDDINGS_MODEL is set');
    embeddings = {
      baseUrl: url('EMBEDDINGS_BASE_URL', ['http:', 'https:']) ?? url('OPENAI_BASE_URL', ['http:', 'https:']) ?? 'https://api.openai.com/v1',
      apiKey: apiKey ?? '',
      model: embeddingsModel,
    };
  }

  const billingProvider = oneOf('BILLING_PROVIDER', ['sandbox', 'stripe'] as const, 'sandbox');
  let stripe: Config['stripe'] = null;
  if (billingProvider === 'stripe') {
    // Only the shape is checked, never echoed: these are secrets.
    const secretKey = str('STRIPE_SECRET_KEY');
    const webhookSecret = str('STRIPE_WEBHOOK_SECRET');
    if (!secretKey || !/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) problems.push('STRIPE_SECRET_KEY is required when BILLING_PROVIDER=stripe and must look like sk_test_…, sk_live_… or rk_…');
    if (!webhookSecret || !/^whsec_\S+$/.test(webhookSecret)) problems.push('STRIPE_WEBHOOK_SECRET is required when BILLING_PROVIDER=stripe and must look like whsec_…');
    stripe = { secretKey: secretKey ?? '', webhookSecret: webhookSecret ?? '', apiBase: url('STRIPE_API_BASE', ['http:', 'https:']) };
  }

  const dataDir = resolve(str('VOICEPLANE_DATA_DIR') ?? '.data');
  const mediaKind = oneOf('MEDIA_STORE', ['files', 's3'] as const, 'files');
  let mediaStore: MediaStoreConfig = { kind: 'files', dir: resolve(dataDir, 'media') };
  if (mediaKind === 's3') {
    const bucket = str('S3_BUCKET');
    if (!bucket) problems.push('S3_BUCKET is required when MEDIA_STORE=s3');
    const accessKeyId = str('S3_ACCESS_KEY_ID');
    const secretAccessKey = str('S3_SECRET_ACCESS_KEY');
    // Without both, the SDK's own chain (environment, instance role, …) supplies credentials.
    if ((accessKeyId === null) !== (secretAccessKey === null)) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    const endpoint = url('S3_ENDPOINT', ['http:', 'https:']);
    mediaStore = {
      kind: 's3', bucket: bucket ?? '', region: str('S3_REGION') ?? 'us-east-1', endpoint, accessKeyId, secretAccessKey,
      // Most S3-compatible servers (MinIO, Ceph, local stand-ins) address buckets by path.
      forcePathStyle: str('S3_FORCE_PATH_STYLE') === null ? endpoint !== null : bool('S3_FORCE_PATH_STYLE'),
    };
  }

  const config: Config = {
    port,
    host,
    publicBaseUrl: (url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    amqpUrl: url('AMQP_URL', ['amqp:', 'amqps:']),
    dataDir,
    adminToken: token('ADMIN_TOKEN'),
    runtimeToken: token('RUNTIME_TOKEN'),
    allowPrivateTargets: bool('ALLOW_PRIVATE_TARGETS'),
    requireHttpsTargets: bool('REQUIRE_HTTPS_TARGETS'),
    logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    sessionTtlHours: int('SESSION_TTL_HOURS', 24, 1, 24 * 365),
    demoPassword: str('DEMO_PASSWORD'),
    secretsKey: str('SECRETS_KEY'),
    callMinutePrices: {
      phone: price('PRICE_PHONE_CALL_MINUTE', DEFAULT_CALL_MINUTE_PRICES.phone),
      chatapp: price('PRICE_CHATAPP_CALL_MINUTE', DEFAULT_CALL_MINUTE_PRICES.chatapp),
    },
    voiceRuntime,
    sipProvisioner,
    numberInventory,
    chatappProvider,
    chatappPrices: {
      templateMessage: price('PRICE_TEMPLATE_MESSAGE', DEFAULT_CHATAPP_PRICES.templateMessage),
      freeformMessage: price('PRICE_FREEFORM_MESSAGE', DEFAULT_CHATAPP_PRICES.freeformMessage),
    },
    livekit,
    twilio,
    whatsapp,
    replyGenerator,
    openai,
    embeddings,
    billingProvider,
    stripe,
    automationHookRatePerMinute: int('AUTOMATION_HOOK_RATE_PER_MINUTE', 60, 1, 1_000_000),
    mediaStore,
    mediaRetentionDays: int('CHATAPP_MEDIA_RETENTION_DAYS', 90, 1, 3650),
    faultHoldIdempotentAnswers: bool('FAULT_HOLD_IDEMPOTENT_ANSWERS'),
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}

/** For process entry points: the configuration, or every problem on stderr and exit code 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

/** Logged once at start by every process that sends requests to user-given addresses. */
export const PRIVATE_TARGETS_WARNING = 'ALLOW_PRIVATE_TARGETS=1: outbound requests may reach private and loopback addresses. Never use this in production.';
