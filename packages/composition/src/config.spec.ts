import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('starts from documented defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c).toEqual(
      expect.objectContaining({
        port: 3000,
        host: '127.0.0.1',
        publicBaseUrl: 'http://127.0.0.1:3000',
        databaseUrl: null,
        amqpUrl: null,
        adminToken: null,
        runtimeToken: null,
        allowPrivateTargets: false,
        requireHttpsTargets: false,
        logLevel: 'info',
        sessionTtlHours: 24,
        voiceRuntime: 'sandbox',
        sipProvisioner: 'sandbox',
        numberInventory: 'sandbox',
        chatappProvider: 'sandbox',
        livekit: null,
        twilio: null,
        callMinutePrices: { phone: 0.1, chatapp: 0.08 },
        chatappPrices: { templateMessage: 0.05, freeformMessage: 0.01 },
        replyGenerator: 'sandbox',
      }),
    );
  });

  it('lists every problem at once', () => {
    expect(() =>
      loadConfig({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
        ADMIN_TOKEN: 'short',
        ALLOW_PRIVATE_TARGETS: 'maybe',
      }),
    ).toThrow(
      new ConfigError(
        [
          'Invalid configuration:',
          '  - PORT must be an integer from 0 to 65535 (got "eighty")',
          '  - DATABASE_URL must use postgres: or postgresql:',
          '  - ADMIN_TOKEN must be at least 16 characters',
          '  - ALLOW_PRIVATE_TARGETS must be 1/0 or true/false (got "maybe")',
          '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        ].join('\n'),
      ),
    );
  });

  it('requires the LiveKit credentials when a LiveKit provider is chosen, and reads its optional lines', () => {
    expect(() => loadConfig({ VOICE_RUNTIME: 'livekit' })).toThrow(
      /LIVEKIT_URL, LIVEKIT_API_KEY and LIVEKIT_API_SECRET are required/,
    );
    const base = {
      VOICE_RUNTIME: 'livekit',
      LIVEKIT_URL: 'https://p.livekit.example',
      LIVEKIT_API_KEY: 'k',
      LIVEKIT_API_SECRET: 's',
    };
    expect(loadConfig(base).livekit).toEqual({
      url: 'https://p.livekit.example',
      apiKey: 'k',
      apiSecret: 's',
      sipEgressIp: null,
      agentName: 'voiceplane-assistant',
      outboundTrunkId: null,
      platformCallerNumber: null,
    });
    expect(
      loadConfig({
        ...base,
        LIVEKIT_AGENT_NAME: 'acme-agent',
        LIVEKIT_OUTBOUND_TRUNK_ID: 'ST_x',
        PLATFORM_CALLER_NUMBER: '+14155550000',
      }).livekit,
    ).toEqual(
      expect.objectContaining({
        agentName: 'acme-agent',
        outboundTrunkId: 'ST_x',
        platformCallerNumber: '+14155550000',
      }),
    );
    expect(() => loadConfig({ ...base, PLATFORM_CALLER_NUMBER: '+14155550000' })).toThrow(
      /PLATFORM_CALLER_NUMBER needs LIVEKIT_OUTBOUND_TRUNK_ID/,
    );
    expect(() =>
      loadConfig({ ...base, LIVEKIT_OUTBOUND_TRUNK_ID: 'ST_x', PLATFORM_CALLER_NUMBER: '4155550000' }),
    ).toThrow(/must be an E.164 number/);
  });

  it('requires Twilio credentials for the Twilio inventory', () => {
    expect(() => loadConfig({ NUMBER_INVENTORY: 'twilio' })).toThrow(
      /TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are required/,
    );
    expect(
      loadConfig({ NUMBER_INVENTORY: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' }).twilio,
    ).toEqual({ accountSid: 'AC1', authToken: 't', baseUrl: 'https://api.twilio.com' });
  });

  it('defaults to the sandbox billing provider and requires both Stripe secrets for Stripe, never echoing them', () => {
    expect(loadConfig({})).toEqual(expect.objectContaining({ billingProvider: 'sandbox', stripe: null }));
    const bad = () =>
      loadConfig({
        BILLING_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'pk_test_oops-secret',
        STRIPE_WEBHOOK_SECRET: 'nope-secret',
      });
    expect(bad).toThrow(/STRIPE_SECRET_KEY is required when BILLING_PROVIDER=stripe/);
    expect(bad).toThrow(/STRIPE_WEBHOOK_SECRET is required/);
    expect(bad).not.toThrow(/oops-secret|nope-secret/);
    expect(() => loadConfig({ BILLING_PROVIDER: 'paypal' })).toThrow(/BILLING_PROVIDER must be one of sandbox, stripe/);
    expect(
      loadConfig({
        BILLING_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_def',
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
      }).stripe,
    ).toEqual({ secretKey: 'sk_test_abc', webhookSecret: 'whsec_def', apiBase: 'http://127.0.0.1:12111' });
  });

  it('reads call-minute prices in USD with at most four decimals', () => {
    expect(loadConfig({ PRICE_PHONE_CALL_MINUTE: '0.125', PRICE_CHATAPP_CALL_MINUTE: '0' }).callMinutePrices).toEqual({
      phone: 0.125,
      chatapp: 0,
    });
    expect(loadConfig({ PRICE_TEMPLATE_MESSAGE: '0.0425', PRICE_FREEFORM_MESSAGE: '0' }).chatappPrices).toEqual({
      templateMessage: 0.0425,
      freeformMessage: 0,
    });
    for (const bad of ['-0.1', '0.00001', 'free', '1e-2', '101']) {
      expect(() => loadConfig({ PRICE_PHONE_CALL_MINUTE: bad })).toThrow(
        `PRICE_PHONE_CALL_MINUTE must be a price in USD from 0 to 100 with at most 4 decimals (got "${bad}")`,
      );
    }
  });

  it('requires the WhatsApp ingress secrets for the WhatsApp Cloud provider and keeps them out of the message', () => {
    expect(loadConfig({}).whatsapp).toBeNull();
    expect(() => loadConfig({ CHATAPP_PROVIDER: 'whatsapp_cloud', WHATSAPP_APP_SECRET: 'app-secret-value' })).toThrow(
      /WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN are required when CHATAPP_PROVIDER=whatsapp_cloud/,
    );
    try {
      loadConfig({ CHATAPP_PROVIDER: 'whatsapp_cloud', WHATSAPP_APP_SECRET: 'app-secret-value' });
    } catch (e) {
      expect((e as Error).message).not.toContain('app-secret-value');
    }
    expect(
      loadConfig({
        CHATAPP_PROVIDER: 'whatsapp_cloud',
        WHATSAPP_APP_SECRET: 's',
        WHATSAPP_VERIFY_TOKEN: 'v',
        REPLY_GENERATOR: 'off',
      }).whatsapp,
    ).toEqual({
      appSecret: 's',
      verifyToken: 'v',
      graphBaseUrl: 'https://graph.facebook.com/v21.0',
      sipServerHost: null,
    });
    expect(() =>
      loadConfig({
        CHATAPP_PROVIDER: 'whatsapp_cloud',
        WHATSAPP_APP_SECRET: 's',
        WHATSAPP_VERIFY_TOKEN: 'v',
        REPLY_GENERATOR: 'off',
        WHATSAPP_GRAPH_BASE_URL: 'ftp://x',
      }),
    ).toThrow(/WHATSAPP_GRAPH_BASE_URL must use http: or https:/);
  });

  it('requires an API key for the OpenAI-compatible reply generator', () => {
    expect(loadConfig({})).toEqual(expect.objectContaining({ replyGenerator: 'sandbox', openai: null }));
    expect(() => loadConfig({ REPLY_GENERATOR: 'openai' })).toThrow(
      /OPENAI_API_KEY is required when REPLY_GENERATOR=openai/,
    );
    expect(() => loadConfig({ REPLY_GENERATOR: 'gpt' })).toThrow(/REPLY_GENERATOR must be one of sandbox, openai, off/);
    expect(loadConfig({ REPLY_GENERATOR: 'off' })).toEqual(
      expect.objectContaining({ replyGenerator: 'off', openai: null }),
    );
    expect(loadConfig({ REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test' }).openai).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-test',
      defaultModel: 'gpt-4o-mini',
    });
    expect(
      loadConfig({
        REPLY_GENERATOR: 'openai',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_MODEL: 'llama3',
      }).openai,
    ).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'k', defaultModel: 'llama3' });
  });

  it('refuses to start a real chat app with the sandbox reply text, and says what to set instead', () => {
    const whatsapp = { CHATAPP_PROVIDER: 'whatsapp_cloud', WHATSAPP_APP_SECRET: 's', WHATSAPP_VERIFY_TOKEN: 'v' };
    expect(() => loadConfig(whatsapp)).toThrow(
      new ConfigError(
        [
          'Invalid configuration:',
          "  - REPLY_GENERATOR=sandbox (the default) would answer real customers with the sandbox's fixed text when CHATAPP_PROVIDER=whatsapp_cloud: set REPLY_GENERATOR=openai (with OPENAI_API_KEY), or REPLY_GENERATOR=off for no AI replies at all",
        ].join('\n'),
      ),
    );
    expect(() => loadConfig({ ...whatsapp, REPLY_GENERATOR: 'sandbox' })).toThrow(
      /REPLY_GENERATOR=sandbox would answer real customers .* REPLY_GENERATOR=off/,
    );
    expect(loadConfig({ ...whatsapp, REPLY_GENERATOR: 'off' }).replyGenerator).toBe('off');
    expect(loadConfig({ ...whatsapp, REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'k' }).replyGenerator).toBe('openai');
    expect(loadConfig({ REPLY_GENERATOR: 'off' }).chatappProvider).toBe('sandbox');
  });

  it('keeps inbound media as files under the data directory unless an S3-compatible bucket is configured', () => {
    expect(loadConfig({ VOICEPLANE_DATA_DIR: '/srv/vp' }).mediaStore).toEqual({ kind: 'files', dir: '/srv/vp/media' });
    expect(() => loadConfig({ MEDIA_STORE: 's3' })).toThrow(/S3_BUCKET is required when MEDIA_STORE=s3/);
    expect(() => loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'AKIA-secret-id' })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/,
    );
    expect(() => loadConfig({ MEDIA_STORE: 'disk' })).toThrow(/MEDIA_STORE must be one of files, s3/);
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'media', S3_REGION: 'eu-central-1' }).mediaStore).toEqual({
      kind: 's3',
      bucket: 'media',
      region: 'eu-central-1',
      endpoint: null,
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
    });
    expect(
      loadConfig({
        MEDIA_STORE: 's3',
        S3_BUCKET: 'media',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
      }).mediaStore,
    ).toEqual({
      kind: 's3',
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
  });
  it('names the variable and what is allowed for an unknown choice, a non-number and an out-of-range number', () => {
    const problem = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(problem({ VOICE_RUNTIME: 'vonage' })).toBe(
      'Invalid configuration:\n  - VOICE_RUNTIME must be one of sandbox, livekit (got "vonage")',
    );
    expect(problem({ NUMBER_INVENTORY: 'Twilio' })).toContain(
      'NUMBER_INVENTORY must be one of sandbox, twilio (got "Twilio")',
    );
    expect(problem({ SESSION_TTL_HOURS: '12h' })).toBe(
      'Invalid configuration:\n  - SESSION_TTL_HOURS must be an integer from 1 to 8760 (got "12h")',
    );
    expect(problem({ SESSION_TTL_HOURS: '1.5' })).toContain(
      'SESSION_TTL_HOURS must be an integer from 1 to 8760 (got "1.5")',
    );
    expect(problem({ PORT: '65536' })).toBe(
      'Invalid configuration:\n  - PORT must be an integer from 0 to 65535 (got "65536")',
    );
    expect(problem({ CHATAPP_MEDIA_RETENTION_DAYS: '0' })).toContain(
      'CHATAPP_MEDIA_RETENTION_DAYS must be an integer from 1 to 3650 (got "0")',
    );
    expect(problem({ AUTOMATION_HOOK_RATE_PER_MINUTE: '-5' })).toContain(
      'AUTOMATION_HOOK_RATE_PER_MINUTE must be an integer from 1 to 1000000 (got "-5")',
    );
    expect(problem({ AMQP_URL: 'not a url' })).toContain('AMQP_URL is not a valid URL');
    expect(problem({ FAULT_HOLD_IDEMPOTENT_ANSWERS: 'on' })).toContain(
      'FAULT_HOLD_IDEMPOTENT_ANSWERS must be 1/0 or true/false (got "on")',
    );
  });

  it("reads numbers and flags from their text, treats blank as unset, and checks a provider's variables only while it is chosen", () => {
    expect(
      loadConfig({
        PORT: ' 8080 ',
        SESSION_TTL_HOURS: '8760',
        ALLOW_PRIVATE_TARGETS: 'YES',
        REQUIRE_HTTPS_TARGETS: 'false',
        LOG_LEVEL: '',
      }),
    ).toEqual(
      expect.objectContaining({
        port: 8080,
        sessionTtlHours: 8760,
        allowPrivateTargets: true,
        requireHttpsTargets: false,
        logLevel: 'info',
      }),
    );
    expect(
      loadConfig({
        AUTOMATION_HOOK_RATE_PER_MINUTE: '5',
        CHATAPP_MEDIA_RETENTION_DAYS: '3650',
        FAULT_HOLD_IDEMPOTENT_ANSWERS: '1',
      }),
    ).toEqual(
      expect.objectContaining({
        automationHookRatePerMinute: 5,
        mediaRetentionDays: 3650,
        faultHoldIdempotentAnswers: true,
      }),
    );
    expect(
      loadConfig({
        TWILIO_BASE_URL: 'ftp://x',
        LIVEKIT_URL: 'nope',
        PLATFORM_CALLER_NUMBER: '123',
        STRIPE_SECRET_KEY: 'x',
        S3_FORCE_PATH_STYLE: 'maybe',
      }).twilio,
    ).toBeNull();
    expect(() => loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      'S3_FORCE_PATH_STYLE must be 1/0 or true/false (got "maybe")',
    );
    expect(
      loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'no' })
        .mediaStore,
    ).toEqual(expect.objectContaining({ forcePathStyle: false }));
    expect(() => loadConfig({ EMBEDDINGS_MODEL: 'm', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'ftp://x' })).toThrow(
      'OPENAI_BASE_URL must use http: or https:',
    );
    expect(
      loadConfig({
        EMBEDDINGS_MODEL: 'm',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: 'ftp://x',
        EMBEDDINGS_BASE_URL: 'http://127.0.0.1:1/v1',
      }).embeddings,
    ).toEqual({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', model: 'm' });
  });
});
