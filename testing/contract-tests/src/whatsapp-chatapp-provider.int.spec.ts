import { WhatsappCloudProvider } from '@voiceplane/adapter-whatsapp';
import { GraphStandIn } from '@voiceplane/stand-ins/whatsapp/graph-stand-in';
import { chatappProviderContract } from './chatapp-provider.contract';

const TOKEN = 'EAAG-test-access-token';
const PHONE_NUMBER_ID = '106540352242922';

let graph: GraphStandIn;
beforeAll(async () => {
  graph = await GraphStandIn.start(TOKEN);
  graph.addNumber({
    phoneNumberId: PHONE_NUMBER_ID,
    displayPhoneNumber: '+1 555-078-3881',
    status: 'CONNECTED',
    qualityRating: 'GREEN',
    messagingLimitTier: 'TIER_1K',
  });
});
afterAll(async () => graph.close());

chatappProviderContract('WhatsApp Cloud (Graph stand-in)', async () => {
  // The stand-in keeps what it received: each test reads only what arrived after it began.
  const before = graph.requests.length;
  const sender = {
    senderId: 12,
    userId: 7,
    phoneNumber: '+15550783881',
    credentials: { phoneNumberId: PHONE_NUMBER_ID, wabaId: '102290129340398', accessToken: TOKEN },
  };
  let mediaCount = 0;
  return {
    provider: new WhatsappCloudProvider({ baseUrl: graph.baseUrl, timeoutMs: 5_000 }),
    sender,
    // Meta refuses a token that is not the number's (OAuth error 190).
    refusedSender: async () => ({
      ...sender,
      credentials: { ...sender.credentials, accessToken: 'EAAG-revoked-token' },
    }),
    // A send Meta accepted: to a number's messages, under the number's own token.
    delivered: async () =>
      graph.requests
        .slice(before)
        .filter((r) => r.method === 'POST' && r.path.endsWith('/messages') && r.authorization === `Bearer ${TOKEN}`)
        .map((r) => (JSON.parse(r.body) as { to: string }).to),
    storedMedia: () => {
      const media = { id: `media-${++mediaCount}-${before}`, bytes: Buffer.from('a voice note, as bytes') };
      graph.addMedia(media.id, media.bytes, 'audio/ogg');
      return media;
    },
  };
});
