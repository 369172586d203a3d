import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { webhookSignature } from './webhook-signature';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function headers(id: string, timestamp: number, signature: string) {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('webhookSignature', () => {
  it('is verified by the reference implementation, and by no other secret', () => {
    const secret = newSecret();
    const body = '{"event":"post_call","text":"héllo ☎"}';
    const ts = nowSeconds();
    const signed = headers('msg_1', ts, webhookSignature([secret], 'msg_1', ts, body));

    expect(signed['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(new Webhook(secret).verify(body, signed)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, signed)).toThrow('No matching signature found');
    expect(() => new Webhook(secret).verify(body.replace('héllo', 'hello'), signed)).toThrow(
      'No matching signature found',
    );
    expect(() => new Webhook(secret).verify(body, { ...signed, 'webhook-id': 'msg_2' })).toThrow(
      'No matching signature found',
    );
  });

  it('signs an empty body as ""', () => {
    const secret = newSecret();
    const ts = nowSeconds();
    const signed = headers('tcl_1', ts, webhookSignature([secret], 'tcl_1', ts, ''));
    expect(() => new Webhook(secret).verify('', signed)).not.toThrow();
  });

  it('during a rotation carries one entry per secret, newest first, each verifiable on its own', () => {
    const [newest, previous] = [newSecret(), newSecret()];
    const body = '{"n":1}';
    const ts = nowSeconds();
    const signature = webhookSignature([newest, previous], 'msg_rot', ts, body);
    const [first, second, ...rest] = signature.split(' ');

    expect(rest).toEqual([]);
    expect(new Webhook(newest).verify(body, headers('msg_rot', ts, signature))).toEqual({ n: 1 });
    expect(new Webhook(previous).verify(body, headers('msg_rot', ts, signature))).toEqual({ n: 1 });
    expect(new Webhook(newest).verify(body, headers('msg_rot', ts, first))).toEqual({ n: 1 });
    expect(() => new Webhook(previous).verify(body, headers('msg_rot', ts, first))).toThrow();
    expect(new Webhook(previous).verify(body, headers('msg_rot', ts, second))).toEqual({ n: 1 });
  });

  it('refuses to sign without a secret rather than send an empty signature', () => {
    expect(() => webhookSignature([], 'msg_1', nowSeconds(), '')).toThrow();
  });
});
