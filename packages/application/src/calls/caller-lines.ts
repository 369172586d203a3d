import { CallerLine } from '@voiceplane/domain';
import { PhoneNumberRepository, SipTrunkRepository } from '../telephony';

/**
 * The line an outbound call leaves from: the assistant's number — a SIP trunk
 * dials out through its outbound trunk, a purchased number through the provider — or, without
 * one, the platform's default line when the runtime has one.
 */
export class CallerLines {
  constructor(
    private readonly phoneNumbers: PhoneNumberRepository,
    private readonly sipTrunks: SipTrunkRepository,
    private readonly platformLine: CallerLine | null,
  ) {}

  async forAssistant(userId: number, phoneNumberId: number | null): Promise<CallerLine | null> {
    if (phoneNumberId === null) return this.platformLine;
    const number = await this.phoneNumbers.find(userId, phoneNumberId);
    if (number === null) return this.platformLine;
    if (number.type === 'purchased') return { phoneNumberId: number.id, phoneNumber: number.phoneNumber, sip: null };
    const trunk = await this.sipTrunks.find(userId, number.id);
    if (trunk === null) return this.platformLine;
    return {
      phoneNumberId: number.id,
      phoneNumber: number.phoneNumber,
      sip: {
        outboundTrunkId: trunk.outboundTrunkId,
        callingFormat: trunk.sipCallingFormat,
        outboundProxy: trunk.outboundProxy,
      },
    };
  }
}
