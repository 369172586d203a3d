import { CallMinutePrices, canAfford, err, ok, Result, RuntimeConfig } from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { CallConfigurations } from './call-configurations';
import { CallRepository } from './ports';

export interface InboundCallRequest {
  /** The dialled number or extension. */
  readonly to: string;
  /** The caller's number. */
  readonly from: string;
  /** The provider's inbound trunk the call arrived on. */
  readonly trunkId: string | null;
  readonly providerCallId: string | null;
}

export type InboundCallRefusal = 'no_assistant' | 'insufficient_balance';

export interface AcceptedInboundCall {
  readonly callId: number;
  readonly config: RuntimeConfig;
}

/**
 * `POST /api/runtime/calls/inbound`: finds the number's inbound assistant and
 * opens the call, which is ringing at voiceplane's side already. A repeated provider call id is the
 * same call.
 */
export class AcceptInboundCall {
  constructor(
    private readonly calls: CallRepository,
    private readonly assistants: AssistantRepository,
    private readonly users: UserRepository,
    private readonly configurations: CallConfigurations,
    private readonly prices: CallMinutePrices,
    private readonly clock: Clock,
  ) {}

  async execute(request: InboundCallRequest): Promise<Result<AcceptedInboundCall, InboundCallRefusal>> {
    if (request.providerCallId !== null) {
      const known = await this.calls.findByProviderCallId(request.providerCallId);
      if (known !== null) return ok({ callId: known.id, config: known.runtimeConfig });
    }
    const route = await this.calls.inboundRoute(request.to, request.trunkId);
    if (route === null || route.assistantId === null) return err('no_assistant');
    const assistant = await this.assistants.findOwned(route.userId, route.assistantId);
    if (
      assistant === null ||
      assistant.type !== 'inbound' ||
      assistant.status !== 'active' ||
      assistant.complianceBlocked
    )
      return err('no_assistant');
    const user = await this.users.findById(route.userId);
    if (user === null || !canAfford(user.balance, this.prices.phone)) return err('insufficient_balance');

    const line = { phoneNumberId: route.phoneNumberId, phoneNumber: route.phoneNumber, sip: route.sip };
    const runtimeConfig = await this.configurations.forStart({
      direction: 'inbound',
      channel: 'phone',
      customerPhone: request.from,
      line,
      assistant,
      variables: {},
    });
    const { call } = await this.calls.create({
      userId: route.userId,
      assistantId: assistant.id,
      direction: 'inbound',
      channel: 'phone',
      status: 'ringing',
      customerPhone: request.from,
      line,
      variables: {},
      runtimeConfig,
      providerCallId: request.providerCallId,
      now: this.clock.now(),
    });
    return ok({ callId: call.id, config: call.runtimeConfig });
  }
}
