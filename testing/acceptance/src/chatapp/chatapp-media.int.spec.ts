import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/** Inbound media kept by voiceplane, through the composed app with the sandbox chat app (its inbound message `media_url`). */

const CUSTOMER = '+14155551234';
const PHOTO = randomBytes(40_000);
let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let files: Server;
let filesUrl: string;

beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/photo.jpg') {
      res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': PHOTO.length });
      res.end(PHOTO);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('gone');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  t = await createTestApi({ startBackground: false, config: { publicBaseUrl: 'https://vp.example' } });
  owner = await t.createUser({ balance: 5 });
  stranger = await t.createUser({ balance: 5 });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => files.close(resolve));
});

async function senderOf(user: TestUser): Promise<number> {
  const phone = `+49152${String(Date.now() % 1_000_000).padStart(6, '0')}${user.id % 100}`;
  const res = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({ phone_number: phone, display_name: 'Acme' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('inbound media (sandbox media_url)', () => {
  it('is downloaded once into the media store, and the message and transcript point at voiceplane’s own URL, served to the owner only', async () => {
    const s = await senderOf(owner);
    const inbound = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(owner.auth)
      .send({
        sender_id: s,
        from_phone: CUSTOMER,
        media_url: `${filesUrl}/photo.jpg`,
        media_type: 'image',
        text: 'My parcel',
      });
    expect(inbound.status).toBe(200);
    const messages = await t.http
      .get(`/api/user/conversations/${inbound.body.conversation_uuid}/messages`)
      .set(owner.auth);
    const [message] = messages.body.data;
    expect(message).toEqual(
      expect.objectContaining({
        type: 'media',
        media_type: 'image',
        body: 'My parcel',
        media_error: null,
        media_url: expect.stringMatching(/^https:\/\/vp\.example\/api\/user\/chatapp\/media\/med_[A-Za-z0-9]{22}$/),
      }),
    );
    const path = new URL(message.media_url).pathname;

    for (const route of [path, path.replace('/chatapp/', '/whatsapp/')]) {
      const served = await t.http
        .get(route)
        .set(owner.auth)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(served.status).toBe(200);
      expect(served.headers).toEqual(
        expect.objectContaining({
          'content-type': 'image/jpeg',
          'content-length': String(PHOTO.length),
          'x-content-type-options': 'nosniff',
        }),
      );
      expect((served.body as Buffer).equals(PHOTO)).toBe(true);
    }
    const foreign = await t.http.get(path).set(stranger.auth);
    expect([foreign.status, foreign.body]).toEqual([404, { message: 'Not found.' }]);
    for (const bad of [
      '/api/user/chatapp/media/med_0000000000000000000000',
      '/api/user/chatapp/media/..%2F..%2Fetc',
      '/api/user/chatapp/media/x',
    ]) {
      expect((await t.http.get(bad).set(owner.auth)).body).toEqual({ message: 'Not found.' });
    }
    expect((await t.http.get(path)).status).toBe(401);
  });

  it('a download that fails keeps the message with media_error and media_url null, and nothing is served', async () => {
    const s = await senderOf(owner);
    const inbound = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(owner.auth)
      .send({ sender_id: s, from_phone: CUSTOMER, media_url: `${filesUrl}/missing.ogg`, media_type: 'audio' });
    expect(inbound.status).toBe(200);
    const messages = await t.http
      .get(`/api/user/conversations/${inbound.body.conversation_uuid}/messages`)
      .set(owner.auth);
    expect(messages.body.data[0]).toEqual(
      expect.objectContaining({
        type: 'media',
        media_type: 'audio',
        media_url: null,
        media_error: 'the server answered 404',
      }),
    );
  });
});
