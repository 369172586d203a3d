import {
  Assistant,
  balanceForNewCall,
  CallMinutePrices,
  CallPermission,
  CONTACT_CALL_ATTEMPTS,
  Conversation,
  MessageTemplate,
  PermissionRequestFacts,
  QuotaUsage,
  Sender,
  User,
  UserQuota,
  ChatappCallFacts,
} from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { UserRepository } from '../ports';
import { RateLimiter } from '../ratelimit';
import { CallRepository } from '../calls';
import { CallPermissionRepository, VoiceConversationLookup, VoiceTemplateLookup } from './ports';
import type { ChatappCallingLines } from '../chatapp';

/** The route quota buckets of the two voice routes, shared by the rate limiter and the preflight. */
export const voiceQuotaKey = (route: 'request' | 'call', userId: number): string => `chatapp-voice-${route}:${userId}`;

export interface RequestFacts extends PermissionRequestFacts {
  readonly template: MessageTemplate | null;
  readonly conversation: Conversation | null;
}

export interface CallFacts extends ChatappCallFacts {
  readonly conversation: Conversation | null;
  /** The sender's assistant the call would run with; null when it has none. */
  readonly callAssistant: Assistant | null;
}

/** What both routes read about the account and the contact. */
interface ContactState {
  readonly user: User | null;
  readonly conversation: Conversation | null;
  readonly permission: CallPermission;
}

/** Where the account, the assistant, the contact and its calls are read. */
export interface VoiceFactsRecords {
  readonly users: UserRepository;
  readonly assistants: AssistantRepository;
  readonly templates: VoiceTemplateLookup;
  readonly conversations: VoiceConversationLookup;
  readonly permissions: CallPermissionRepository;
  readonly calls: CallRepository;
}

/**
 * Reads what the decisions need about one sender and customer. The permission is read
 * as passed in when the caller holds it locked.
 */
export class VoiceFacts {
  private readonly users: UserRepository;
  private readonly assistants: AssistantRepository;
  private readonly templates: VoiceTemplateLookup;
  private readonly conversations: VoiceConversationLookup;
  private readonly permissions: CallPermissionRepository;
  private readonly calls: CallRepository;

  constructor(
    records: VoiceFactsRecords,
    private readonly rateLimits: RateLimiter,
    private readonly prices: CallMinutePrices,
    /** Null where chat-app calls need no line of their own (the sandbox). */
    private readonly callingLines: ChatappCallingLines | null = null,
  ) {
    ({
      users: this.users,
      assistants: this.assistants,
      templates: this.templates,
      conversations: this.conversations,
      permissions: this.permissions,
      calls: this.calls,
    } = records);
  }

  async forRequest(
    sender: Sender,
    customerPhone: string,
    templateId: number | null,
    permission?: CallPermission,
  ): Promise<RequestFacts> {
    return this.requestFacts(sender, await this.contact(sender, customerPhone, permission), templateId);
  }

  /**
   * With `lock` (placing a call, in its transaction) the account's balance is locked first — the
   * lock every call of the account takes first, make_call too — so concurrent calls see each
   * other's reservation.
   */
  async forCall(sender: Sender, customerPhone: string, now: Date, lock: boolean): Promise<CallFacts> {
    if (lock) await this.users.lockBalance(sender.userId);
    return this.callFacts(sender, customerPhone, await this.contact(sender, customerPhone), now, lock);
  }

  /** Both routes' facts for the preflight, the account, conversation and permission read once. */
  async forPreflight(
    sender: Sender,
    customerPhone: string,
    now: Date,
  ): Promise<{ readonly request: RequestFacts; readonly call: CallFacts }> {
    const contact = await this.contact(sender, customerPhone);
    return {
      request: await this.requestFacts(sender, contact, null),
      call: await this.callFacts(sender, customerPhone, contact, now, false),
    };
  }

  private async contact(sender: Sender, customerPhone: string, permission?: CallPermission): Promise<ContactState> {
    return {
      user: await this.users.findById(sender.userId),
      conversation: await this.conversations.find(sender.id, customerPhone),
      permission: permission ?? (await this.permissions.find(sender.id, customerPhone)),
    };
  }

  private async requestFacts(
    sender: Sender,
    { user, conversation, permission }: ContactState,
    templateId: number | null,
  ): Promise<RequestFacts> {
    const template = requestTemplate(await this.templates.list(sender.id, 'approved'), templateId);
    return {
      planCallingEnabled: user?.plan.chatapp_calling_enabled ?? false,
      senderCallingEnabled: sender.callingEnabled,
      senderCountry: sender.countryCode,
      hasRequestTemplate: template !== null,
      lastCustomerMessageAt: conversation?.window.lastCustomerMessageAt ?? null,
      permission,
      template,
      conversation,
    };
  }

  private async callFacts(
    sender: Sender,
    customerPhone: string,
    { user, conversation, permission }: ContactState,
    now: Date,
    lock: boolean,
  ): Promise<CallFacts> {
    const assistant =
      sender.assistantId === null ? null : await this.assistants.findOwned(sender.userId, sender.assistantId);
    const since = new Date(now.getTime() - CONTACT_CALL_ATTEMPTS.periodMs);
    const activity = await this.calls.chatappActivity(sender.id, customerPhone, since, lock);
    return {
      planCallingEnabled: user?.plan.chatapp_calling_enabled ?? false,
      senderCallingEnabled: sender.callingEnabled,
      senderCallingLineReady: this.callingLines === null || (await this.callingLines.trunkOf(sender.id)) !== null,
      senderOnline: sender.status === 'online',
      senderCountry: sender.countryCode,
      assistant: assistant === null ? 'none' : assistant.complianceBlocked ? 'compliance_blocked' : 'available',
      callAssistant: assistant,
      permission,
      // What a new call may count on: the first minute of each call in progress is spoken for.
      balance:
        user === null ? 0 : balanceForNewCall(user.balance, await this.calls.openCallCounts(user.id), this.prices),
      minutePrice: this.prices.chatapp,
      senderCallStatuses: activity.openStatuses,
      contactAttempts: activity.contactAttempts,
      conversation,
    };
  }

  /** The user's counts in the current windows of a route's quotas, read without counting. */
  quotaUsage(route: 'request' | 'call', userId: number, quotas: readonly UserQuota[]): Promise<QuotaUsage[]> {
    return Promise.all(
      quotas.map(async (quota) => ({
        quota,
        used: await this.rateLimits.counted({
          key: voiceQuotaKey(route, userId),
          limit: quota.limit,
          windowSeconds: quota.windowSeconds,
        }),
      })),
    );
  }
}

/** The given approved `voice_call_request` template, or else the sender's most recently approved one. */
function requestTemplate(approved: readonly MessageTemplate[], templateId: number | null): MessageTemplate | null {
  const candidates = approved.filter(
    (t) => t.category === 'voice_call_request' && (templateId === null || t.id === templateId),
  );
  return candidates.reduce<MessageTemplate | null>(
    (latest, t) => (latest === null || t.updatedAt >= latest.updatedAt ? t : latest),
    null,
  );
}
