import { textMessage } from '@voiceplane/stand-ins/whatsapp/webhook-fixtures';
import { hubSignatureOf } from './hub-signature';
import { WhatsappIngressGate } from './whatsapp-ingress-gate';

const gate = new WhatsappIngressGate({ appSecret: 'app-secret', verifyToken: 'verify-me' });

const body = Buffer.from(JSON.stringify(textMessage('wamid.1', 'Hi')));

describe('WhatsApp ingress gate', () => {
  it('echoes the challenge only for a subscribe with the configured verify token', () => {
    expect(
      gate.answerChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1158201444' }),
    ).toBe('1158201444');
    expect(
      gate.answerChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-mE', 'hub.challenge': '1158201444' }),
    ).toBeNull();
    expect(
      gate.answerChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify', 'hub.challenge': '1158201444' }),
    ).toBeNull();
    expect(
      gate.answerChallenge({
        'hub.mode': 'unsubscribe',
        'hub.verify_token': 'verify-me',
        'hub.challenge': '1158201444',
      }),
    ).toBeNull();
    expect(gate.answerChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me' })).toBeNull();
    expect(
      gate.answerChallenge({ 'hub.mode': 'subscribe', 'hub.verify_token': ['verify-me'], 'hub.challenge': '1' }),
    ).toBeNull();
  });

  it('opens a notification signed over its exact bytes', () => {
    expect(gate.open(body, hubSignatureOf('app-secret', body))).toEqual([
      expect.objectContaining({ kind: 'customer_message', providerItemId: 'wamid.1', text: 'Hi' }),
    ]);
    expect(
      gate.open(body, hubSignatureOf('app-secret', body).toUpperCase().replace('SHA256=', 'sha256=')),
    ).toHaveLength(1);
  });

  it('refuses a missing, malformed or wrong signature, and one over other bytes', () => {
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2));
    expect(gate.open(body, null)).toBeNull();
    expect(gate.open(body, 'sha256=')).toBeNull();
    expect(gate.open(body, 'sha256=zz')).toBeNull();
    expect(gate.open(body, hubSignatureOf('app-secret', body).replace('sha256=', 'sha1='))).toBeNull();
    expect(gate.open(body, hubSignatureOf('other-secret', body))).toBeNull();
    expect(gate.open(reformatted, hubSignatureOf('app-secret', body))).toBeNull();
  });

  it('acknowledges a signed body it cannot read with no items', () => {
    const junk = Buffer.from('not json');
    expect(gate.open(junk, hubSignatureOf('app-secret', junk))).toEqual([]);
  });
});
