import { EventEmitter } from 'node:events';
import type { JobContext } from '@livekit/agents';
import { RoomEvent } from '@livekit/rtc-node';
import type { SipClient } from 'livekit-server-sdk';
import type { CallEnd } from './call-reporter';
import { inboundCallOf, waitForAnswer } from './livekit-agent';
import { LiveKitLine } from './livekit-line';

/** The room side of a call against a stand-in room: the events and calls LiveKit's SDK would carry. */

class FakeRoom extends EventEmitter {
  readonly name = 'vp-call-out-4812';
  readonly remoteParticipants = new Map<string, { identity: string; attributes: Record<string, string> }>();
  readonly dtmf: string[] = [];
  readonly localParticipant = {
    publishDtmf: async (code: number, digit: string) => void this.dtmf.push(`${code}:${digit}`),
  };
}

function setup() {
  const room = new FakeRoom();
  const calls: string[] = [];
  const ctx = {
    room,
    deleteRoom: async () => void calls.push('deleteRoom'),
    shutdown: (reason: string) => void calls.push(`shutdown ${reason}`),
  } as unknown as JobContext;
  const sip = {
    transferSipParticipant: async (roomName: string, identity: string, to: string) =>
      void calls.push(`refer ${roomName} ${identity} ${to}`),
    createSipParticipant: async (trunk: string, number: string, roomName: string) =>
      void calls.push(`dial ${trunk} ${number} ${roomName}`),
  } as unknown as SipClient;
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const line = (outboundTrunkId: string | null = 'ST_out') =>
    new LiveKitLine({
      ctx,
      sip,
      customerIdentity: 'customer-4812',
      outboundTrunkId,
      callerNumber: '+14155550000',
      log: silent,
    });
  return { room, calls, ctx, line };
}

describe('the LiveKit line', () => {
  it('hangs up by deleting the room; a cold transfer is a SIP REFER of the customer', async () => {
    const { calls, line } = setup();
    const l = line();
    await l.transfer('+14155550199', null);
    await l.hangUp();
    expect(calls).toEqual(['refer vp-call-out-4812 customer-4812 tel:+14155550199', 'deleteRoom']);
  });

  it('a warm transfer dials the colleague into the room, briefs, then the agent only leaves', async () => {
    const { calls, line } = setup();
    const l = line();
    await l.transfer('+14155550199', async () => void calls.push('brief'));
    await l.hangUp();
    expect(calls).toEqual(['dial ST_out +14155550199 vp-call-out-4812', 'brief', 'shutdown transferred']);
    await expect(line(null).transfer('+14155550199', async () => undefined)).rejects.toThrow(
      'warm transfer needs an outbound trunk',
    );
  });

  it("sends DTMF as RFC 4733 codes and collects the customer's keys until the stop key or the timeout", async () => {
    const { room, line } = setup();
    const l = line();
    await l.sendDtmf('1*#');
    expect(room.dtmf).toEqual(['1:1', '10:*', '11:#']);

    const digits = l.collectDigits('#', 5);
    room.emit(RoomEvent.DtmfReceived, 4, '4', { identity: 'customer-4812' });
    room.emit(RoomEvent.DtmfReceived, 9, '9', { identity: 'someone-else' });
    room.emit(RoomEvent.DtmfReceived, 2, '2', { identity: 'customer-4812' });
    room.emit(RoomEvent.DtmfReceived, 11, '#', { identity: 'customer-4812' });
    expect(await digits).toBe('42');
    expect(room.listenerCount(RoomEvent.DtmfReceived)).toBe(0);

    jest.useFakeTimers();
    try {
      const quiet = l.collectDigits('#', 2);
      room.emit(RoomEvent.DtmfReceived, 7, '7', { identity: 'customer-4812' });
      jest.advanceTimersByTime(2000);
      expect(await quiet).toBe('7');
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('answer detection on outbound calls', () => {
  const hold = () => {
    const events: string[] = [];
    return {
      events,
      hold: {
        customerRinging: async () => void events.push('ringing'),
        end: async (end: CallEnd) => void events.push(`end ${end.status} ${end.reason}`),
      },
    };
  };
  const status = (room: FakeRoom, callStatus: string) =>
    room.emit(
      RoomEvent.ParticipantAttributesChanged,
      { [`sip.callStatus`]: callStatus },
      { identity: 'customer-4812', attributes: { 'sip.callStatus': callStatus } },
    );

  it('reports ringing, then answers when the SIP status turns active', async () => {
    const { room, ctx } = setup();
    const { events, hold: h } = hold();
    const answered = waitForAnswer(ctx, h, 'customer-4812', 30);
    room.emit(RoomEvent.ParticipantConnected, {
      identity: 'customer-4812',
      attributes: { 'sip.callStatus': 'dialing' },
    });
    status(room, 'ringing');
    status(room, 'ringing');
    status(room, 'active');
    expect(await answered).toBe(true);
    expect(events).toEqual(['ringing']);
  });

  it('a customer already active when the agent looks is answered', async () => {
    const { room, ctx } = setup();
    room.remoteParticipants.set('customer-4812', {
      identity: 'customer-4812',
      attributes: { 'sip.callStatus': 'active' },
    });
    expect(await waitForAnswer(ctx, hold().hold, 'customer-4812', 30)).toBe(true);
  });

  it('leaving while ringing is no-answer, before ringing a failed dial, and nobody at all no-answer after the ringing time', async () => {
    const { room, ctx } = setup();
    const a = hold();
    const ringingThenGone = waitForAnswer(ctx, a.hold, 'customer-4812', 30);
    status(room, 'ringing');
    room.emit(RoomEvent.ParticipantDisconnected, { identity: 'customer-4812' });
    expect(await ringingThenGone).toBe(false);
    expect(a.events).toEqual(['ringing', 'end no-answer no_answer']);

    const b = hold();
    const neverRang = waitForAnswer(ctx, b.hold, 'customer-4812', 30);
    status(room, 'dialing');
    room.emit(RoomEvent.ParticipantDisconnected, { identity: 'customer-4812' });
    expect(await neverRang).toBe(false);
    expect(b.events).toEqual(['end failed dial_failed']);

    jest.useFakeTimers();
    try {
      const c = hold();
      const nobody = waitForAnswer(ctx, c.hold, 'customer-4812', 30);
      jest.advanceTimersByTime(45_000);
      expect(await nobody).toBe(false);
      expect(c.events).toEqual(['end no-answer no_answer']);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('inbound calls', () => {
  it('ask the control plane with the numbers, trunk and SIP call id LiveKit gives the caller', () => {
    expect(
      inboundCallOf({
        'sip.trunkPhoneNumber': '+493012345678',
        'sip.phoneNumber': '+14155551234',
        'sip.trunkID': 'ST_in1',
        'sip.callID': 'SCL_abc',
      }),
    ).toEqual({ to: '+493012345678', from: '+14155551234', trunk_id: 'ST_in1', provider_call_id: 'SCL_abc' });
    expect(inboundCallOf({ 'sip.trunkPhoneNumber': '1001', 'sip.phoneNumber': '+14155551234' })).toEqual({
      to: '1001',
      from: '+14155551234',
    });
  });
});
