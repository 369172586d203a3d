import {
  ChatappCallingLines,
  chatappInboxJobs,
  ChatappIngress,
  ProviderSenders,
  SecretCipher,
  TOKENS,
} from '@voiceplane/application';
import { ChatappIngressController } from '@voiceplane/adapter-http';
import { PostgresChatappInbox } from '@voiceplane/adapter-typeorm';
import { WhatsappCloudProvider, WhatsappIngressGate } from '@voiceplane/adapter-whatsapp';
import { LiveKitSipProvisioner } from '@voiceplane/adapter-livekit';
import { OpenAiReplyGenerator } from '@voiceplane/adapter-openai';
import { everyInterval } from './every-interval';
import { ApiModule } from './module';

const HOUR_MS = 3_600_000;
/** Handled inbox items are kept this long: long enough to stop any redelivery Meta still makes. */
const INBOX_RETENTION_DAYS = 7;

/**
 * The real chat-app providers, chosen by configuration: the WhatsApp Cloud API with its ingress
 * when CHATAPP_PROVIDER=whatsapp_cloud, and an OpenAI-compatible reply
 * generator when REPLY_GENERATOR=openai. With the defaults it binds nothing and serves no route:
 * the sandbox provider and generator of the chat-app core answer instead, and the ingress path is
 * an unknown route. Inbox items are handed to the core's ChatappInboundHandler by scheduler jobs,
 * which run wherever the background work runs (api in single-process mode, else apps/worker).
 */
export const chatappProvidersModule: ApiModule = ({ container: c, config, database, logger }) => {
  if (config.replyGenerator === 'openai' && config.openai)
    c.bind(TOKENS.ReplyGenerator).toConstantValue(new OpenAiReplyGenerator(config.openai));
  if (config.chatappProvider !== 'whatsapp_cloud' || !config.whatsapp) return {};

  const log = logger.child({ module: 'chatapp-providers' });
  const whatsapp = new WhatsappCloudProvider({ baseUrl: config.whatsapp.graphBaseUrl });
  c.bind(TOKENS.ChatappProvider).toConstantValue(whatsapp);
  if (config.voiceRuntime === 'livekit' && config.livekit) {
    // Chat-app calls become WhatsApp calls over SIP, each sender through its own LiveKit trunk.
    const { url, apiKey, apiSecret, sipEgressIp } = config.livekit;
    const trunks = new LiveKitSipProvisioner({ url, apiKey, apiSecret, sipEgressIp });
    const sipServerHost = config.whatsapp.sipServerHost;
    c.bind(TOKENS.ChatappCallingLines)
      .toDynamicValue(
        (ctx) =>
          new ChatappCallingLines(
            ctx.get(TOKENS.SenderRepository),
            ctx.get(ProviderSenders),
            whatsapp,
            trunks,
            ctx.get(SecretCipher),
            { sipServerHost, log },
          ),
      )
      .inSingletonScope();
  }
  const inbox = new PostgresChatappInbox(database);
  c.bind(TOKENS.ChatappInbox).toConstantValue(inbox);
  c.bind(TOKENS.ChatappIngressGate).toConstantValue(
    new WhatsappIngressGate({ appSecret: config.whatsapp.appSecret, verifyToken: config.whatsapp.verifyToken }),
  );
  c.bind(TOKENS.ChatappIngress)
    .toDynamicValue(
      (ctx) =>
        new ChatappIngress(ctx.get(TOKENS.UnitOfWork), inbox, ctx.get(TOKENS.JobScheduler), ctx.get(TOKENS.Clock)),
    )
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue((ctx) =>
      chatappInboxJobs(inbox, () => c.get(TOKENS.ChatappInboundHandler), ctx.get(TOKENS.Clock), log),
    )
    .inSingletonScope();
  c.bind(ChatappIngressController).toSelf().inSingletonScope();

  const retention = everyInterval(
    'chatapp-inbox-retention',
    HOUR_MS,
    async () => {
      const cutoff = new Date(c.get(TOKENS.Clock).now().getTime() - INBOX_RETENTION_DAYS * 24 * HOUR_MS);
      while ((await inbox.purgeProcessedBefore(cutoff, 1_000)) === 1_000);
    },
    log,
  );

  return { background: [retention] };
};
