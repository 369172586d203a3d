import type { JobContext } from '@livekit/agents';
import { RoomEvent, type RemoteParticipant } from '@livekit/rtc-node';
import { SipClient } from 'livekit-server-sdk';
import type { CallLine, Log } from './call-hold';

/** DTMF event codes (RFC 4733): digits are themselves, `*` is 10, `#` is 11. */
const DTMF_CODES: Readonly<Record<string, number>> = {
  '*': 10,
  '#': 11,
  ...Object.fromEntries([...'0123456789'].map((d) => [d, Number(d)])),
};
const DTMF_GAP_MS = 150;

export interface LiveKitLineOptions {
  readonly ctx: JobContext;
  readonly sip: SipClient;
  /** The customer's SIP participant in the room. */
  readonly customerIdentity: string;
  /** Trunk that dials colleagues for a warm transfer; null: warm transfers are refused. */
  readonly outboundTrunkId: string | null;
  readonly callerNumber: string | null;
  readonly log: Log;
}

/**
 * The phone line of a call in its LiveKit room: hanging up deletes the room; a cold transfer is a
 * SIP REFER of the customer's participant; a warm transfer dials the colleague into the room, lets
 * the agent brief them (everyone on the line hears it), then the agent leaves the two connected.
 * DTMF goes out as RFC 4733 events from the agent's participant and comes in from the customer's.
 */
export class LiveKitLine implements CallLine {
  private bridged = false;

  constructor(private readonly o: LiveKitLineOptions) {}

  async hangUp(): Promise<void> {
    if (this.bridged) {
      this.o.ctx.shutdown('transferred');
      return;
    }
    await this.o.ctx.deleteRoom();
  }

  async transfer(phoneNumber: string, brief: (() => Promise<void>) | null): Promise<void> {
    const room = this.o.ctx.room.name!;
    if (brief === null) {
      await this.o.sip.transferSipParticipant(room, this.o.customerIdentity, `tel:${phoneNumber}`, {
        playDialtone: true,
      });
      return;
    }
    if (!this.o.outboundTrunkId)
      throw new Error("warm transfer needs an outbound trunk (LIVEKIT_OUTBOUND_TRUNK_ID or the call's SIP trunk)");
    await this.o.sip.createSipParticipant(this.o.outboundTrunkId, phoneNumber, room, {
      participantIdentity: `colleague-${Date.now()}`,
      participantName: 'Colleague',
      fromNumber: this.o.callerNumber ?? undefined,
      waitUntilAnswered: true,
    });
    await brief();
    this.bridged = true;
  }

  async sendDtmf(digits: string): Promise<void> {
    const local = this.o.ctx.room.localParticipant!;
    for (const digit of digits) {
      await local.publishDtmf(DTMF_CODES[digit], digit);
      await new Promise((resolve) => setTimeout(resolve, DTMF_GAP_MS));
    }
  }

  collectDigits(stopKey: string, timeoutS: number): Promise<string> {
    const room = this.o.ctx.room;
    return new Promise((resolve) => {
      let digits = '';
      let timer: NodeJS.Timeout;
      const done = () => {
        clearTimeout(timer);
        room.off(RoomEvent.DtmfReceived, onDigit);
        resolve(digits);
      };
      const restart = () => {
        clearTimeout(timer);
        timer = setTimeout(done, timeoutS * 1000);
      };
      const onDigit = (_code: number, digit: string, participant: RemoteParticipant) => {
        if (participant.identity !== this.o.customerIdentity) return;
        if (digit === stopKey) return done();
        digits += digit;
        restart();
      };
      room.on(RoomEvent.DtmfReceived, onDigit);
      restart();
    });
  }
}
