import { resolve } from 'node:path';
import {
  CallMinutePrices,
  ChatappPrices,
  DEFAULT_CALL_MINUTE_PRICES,
  DEFAULT_CHATAPP_PRICES,
  DEFAULT_SMS_PRICES,
  SmsPrices,
} from '@voiceplane/domain';
import type { S3Bucket } from '@voiceplane/application';
import { readEnvironment } from './config-environment';

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
  readonly smsProvider: 'sandbox' | 'twilio';
  /** USD per SMS segment (configuration with this default). */
  readonly smsPrices: SmsPrices;
  readonly livekit: {
    readonly url: string;
    readonly apiKey: string;
    readonly apiSecret: string;
    readonly sipEgressIp: string | null;
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
    readonly appSecret: string;
    readonly verifyToken: string;
    readonly graphBaseUrl: string;
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
  readonly stripe: {
    readonly secretKey: string;
    readonly webhookSecret: string;
    readonly apiBase: string | null;
  } | null;
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
  /** The account event stream: streams per account on one instance, and the heartbeat that keeps idle ones open. */
  readonly eventStreams: { readonly perAccount: number; readonly heartbeatMs: number };
  /** The built web console served at `/app`, when there is one. */
  readonly consoleDir: string | null;
}

export type MediaStoreConfig = { readonly kind: 'files'; readonly dir: string } | ({ readonly kind: 's3' } & S3Bucket);

export class ConfigError extends Error {}

/** Reads and checks every setting once, at start; a bad value stops the process with a clear list. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const { environment: e, problems } = readEnvironment(env);
  const nullable = (v: string | undefined) => v ?? null;
  const priceOr = (raw: string | undefined, fallback: number) => (raw === undefined ? fallback : Number(raw));

  const port = e.PORT ?? 3000;
  const host = e.HOST ?? '127.0.0.1';
  const voiceRuntime = e.VOICE_RUNTIME ?? 'sandbox';
  const sipProvisioner = e.SIP_PROVISIONER ?? 'sandbox';
  const numberInventory = e.NUMBER_INVENTORY ?? 'sandbox';
  const chatappProvider = e.CHATAPP_PROVIDER ?? 'sandbox';
  const smsProvider = e.SMS_PROVIDER ?? 'sandbox';

  // Checks across variables follow: a provider's credentials are required only while that provider is chosen.
  let livekit: Config['livekit'] = null;
  if (voiceRuntime === 'livekit' || sipProvisioner === 'livekit') {
    if (!e.LIVEKIT_URL || !e.LIVEKIT_API_KEY || !e.LIVEKIT_API_SECRET)
      problems.push(
        'LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET are required when a LiveKit provider is selected',
      );
    const outboundTrunkId = nullable(e.LIVEKIT_OUTBOUND_TRUNK_ID);
    const platformCallerNumber = nullable(e.PLATFORM_CALLER_NUMBER);
    if (platformCallerNumber !== null && outboundTrunkId === null)
      problems.push('PLATFORM_CALLER_NUMBER needs LIVEKIT_OUTBOUND_TRUNK_ID, the trunk its calls leave through');
    livekit = {
      url: e.LIVEKIT_URL ?? '',
      apiKey: e.LIVEKIT_API_KEY ?? '',
      apiSecret: e.LIVEKIT_API_SECRET ?? '',
      sipEgressIp: nullable(e.LIVEKIT_SIP_EGRESS_IP),
      agentName: e.LIVEKIT_AGENT_NAME ?? 'voiceplane-assistant',
      outboundTrunkId,
      platformCallerNumber,
    };
  }
  let twilio: Config['twilio'] = null;
  if (numberInventory === 'twilio' || smsProvider === 'twilio') {
    if (!e.TWILIO_ACCOUNT_SID || !e.TWILIO_AUTH_TOKEN)
      problems.push(
        'TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are required when NUMBER_INVENTORY=twilio or SMS_PROVIDER=twilio',
      );
    twilio = {
      accountSid: e.TWILIO_ACCOUNT_SID ?? '',
      authToken: e.TWILIO_AUTH_TOKEN ?? '',
      baseUrl: e.TWILIO_BASE_URL ?? 'https://api.twilio.com',
    };
  }

  let whatsapp: Config['whatsapp'] = null;
  if (chatappProvider === 'whatsapp_cloud') {
    if (!e.WHATSAPP_APP_SECRET || !e.WHATSAPP_VERIFY_TOKEN)
      problems.push('WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN are required when CHATAPP_PROVIDER=whatsapp_cloud');
    whatsapp = {
      appSecret: e.WHATSAPP_APP_SECRET ?? '',
      verifyToken: e.WHATSAPP_VERIFY_TOKEN ?? '',
      graphBaseUrl: e.WHATSAPP_GRAPH_BASE_URL ?? 'https://graph.facebook.com/v21.0',
      sipServerHost: nullable(e.WHATSAPP_SIP_SERVER_HOST),
    };
  }
  const replyGenerator = e.REPLY_GENERATOR ?? 'sandbox';
  // The sandbox's fixed text must never reach a real customer: a real chat app needs an explicit choice.
  if (chatappProvider === 'whatsapp_cloud' && replyGenerator === 'sandbox') {
    problems.push(
      `REPLY_GENERATOR=sandbox${e.REPLY_GENERATOR === undefined ? ' (the default)' : ''} would answer real customers with the sandbox's fixed text when CHATAPP_PROVIDER=whatsapp_cloud: set REPLY_GENERATOR=openai (with OPENAI_API_KEY), or REPLY_GENERATOR=off for no AI replies at all`,
    );
  }
  let openai: Config['openai'] = null;
  if (replyGenerator === 'openai') {
    if (!e.OPENAI_API_KEY) problems.push('OPENAI_API_KEY is required when REPLY_GENERATOR=openai');
    openai = {
      baseUrl: e.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
      apiKey: e.OPENAI_API_KEY ?? '',
      defaultModel: e.OPENAI_MODEL ?? 'gpt-4o-mini',
    };
  }

  // Embeddings are optional: without a model, knowledge bases are searched by full text alone.
  let embeddings: Config['embeddings'] = null;
  if (e.EMBEDDINGS_MODEL !== undefined) {
    const apiKey = e.EMBEDDINGS_API_KEY ?? e.OPENAI_API_KEY;
    if (!apiKey) problems.push('EMBEDDINGS_API_KEY (or OPENAI_API_KEY) is required when EMBEDDINGS_MODEL is set');
    embeddings = {
      baseUrl: e.EMBEDDINGS_BASE_URL ?? e.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
      apiKey: apiKey ?? '',
      model: e.EMBEDDINGS_MODEL,
    };
  }

  const billingProvider = e.BILLING_PROVIDER ?? 'sandbox';
  const stripe: Config['stripe'] =
    billingProvider !== 'stripe'
      ? null
      : {
          secretKey: e.STRIPE_SECRET_KEY ?? '',
          webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
          apiBase: nullable(e.STRIPE_API_BASE),
        };

  const dataDir = resolve(e.VOICEPLANE_DATA_DIR ?? '.data');
  let mediaStore: MediaStoreConfig = { kind: 'files', dir: resolve(dataDir, 'media') };
  if (e.MEDIA_STORE === 's3') {
    if (!e.S3_BUCKET) problems.push('S3_BUCKET is required when MEDIA_STORE=s3');
    const accessKeyId = nullable(e.S3_ACCESS_KEY_ID);
    const secretAccessKey = nullable(e.S3_SECRET_ACCESS_KEY);
    // Without both, the SDK's own chain (environment, instance role, …) supplies credentials.
    if ((accessKeyId === null) !== (secretAccessKey === null))
      problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    const endpoint = nullable(e.S3_ENDPOINT);
    mediaStore = {
      kind: 's3',
      bucket: e.S3_BUCKET ?? '',
      region: e.S3_REGION ?? 'us-east-1',
      endpoint,
      accessKeyId,
      secretAccessKey,
      // Most S3-compatible servers (MinIO, Ceph, local stand-ins) address buckets by path.
      forcePathStyle: e.S3_FORCE_PATH_STYLE ?? endpoint !== null,
    };
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);

  return {
    port,
    host,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    databaseUrl: nullable(e.DATABASE_URL),
    amqpUrl: nullable(e.AMQP_URL),
    dataDir,
    adminToken: nullable(e.ADMIN_TOKEN),
    runtimeToken: nullable(e.RUNTIME_TOKEN),
    allowPrivateTargets: e.ALLOW_PRIVATE_TARGETS ?? false,
    requireHttpsTargets: e.REQUIRE_HTTPS_TARGETS ?? false,
    logLevel: e.LOG_LEVEL ?? 'info',
    sessionTtlHours: e.SESSION_TTL_HOURS ?? 24,
    demoPassword: nullable(e.DEMO_PASSWORD),
    secretsKey: nullable(e.SECRETS_KEY),
    callMinutePrices: {
      phone: priceOr(e.PRICE_PHONE_CALL_MINUTE, DEFAULT_CALL_MINUTE_PRICES.phone),
      chatapp: priceOr(e.PRICE_CHATAPP_CALL_MINUTE, DEFAULT_CALL_MINUTE_PRICES.chatapp),
    },
    voiceRuntime,
    sipProvisioner,
    numberInventory,
    chatappProvider,
    smsProvider,
    smsPrices: { segment: priceOr(e.PRICE_SMS_SEGMENT, DEFAULT_SMS_PRICES.segment) },
    chatappPrices: {
      templateMessage: priceOr(e.PRICE_TEMPLATE_MESSAGE, DEFAULT_CHATAPP_PRICES.templateMessage),
      freeformMessage: priceOr(e.PRICE_FREEFORM_MESSAGE, DEFAULT_CHATAPP_PRICES.freeformMessage),
    },
    livekit,
    twilio,
    whatsapp,
    replyGenerator,
    openai,
    embeddings,
    billingProvider,
    stripe,
    automationHookRatePerMinute: e.AUTOMATION_HOOK_RATE_PER_MINUTE ?? 60,
    mediaStore,
    mediaRetentionDays: e.CHATAPP_MEDIA_RETENTION_DAYS ?? 90,
    faultHoldIdempotentAnswers: e.FAULT_HOLD_IDEMPOTENT_ANSWERS ?? false,
    eventStreams: { perAccount: 5, heartbeatMs: 15_000 },
    consoleDir: null,
  };
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
export const PRIVATE_TARGETS_WARNING =
  'ALLOW_PRIVATE_TARGETS=1: outbound requests may reach private and loopback addresses. Never use this in production.';
