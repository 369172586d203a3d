import {
  MediaType,
  MessageDeliveryUpdateStatus,
  QualityRating,
  TemplateCategory,
  TemplateStatus,
} from '@voiceplane/domain';
import type { SenderReach } from './ports';

/**
 * What a provider needs to act for one sender. `credentials` is the decrypted `provider_config`
 * (WhatsApp: phone_number_id, waba_id, access_token); null for the sandbox.
 */
export interface ProviderSender {
  readonly senderId: number;
  readonly userId: number;
  readonly phoneNumber: string;
  readonly credentials: WhatsappCredentials | null;
}

export interface WhatsappCredentials {
  readonly phoneNumberId: string;
  readonly wabaId: string;
  readonly accessToken: string;
}

/** What the provider says about a sender it was asked to register. */
export interface RegisteredSender {
  readonly status: 'online' | 'offline';
  /** The provider's id for the number, matched by status items of the ingress. */
  readonly providerSenderRef: string | null;
  /** The business account the number belongs to, matched by account-wide items of the ingress. */
  readonly providerAccountRef: string | null;
  readonly qualityRating: QualityRating;
  /** Messages to new customers per 24 hours; null = unlimited. */
  readonly messagingLimit: number | null;
}

export interface TemplateSubmission {
  readonly name: string;
  readonly language: string;
  readonly category: TemplateCategory;
  readonly bodyText: string;
  readonly footerText: string | null;
}

export interface SubmittedTemplate {
  readonly status: TemplateStatus;
  /** The provider's template id, matched by template-status items of the ingress. */
  readonly providerTemplateRef: string | null;
}

export interface TemplateMessage {
  readonly name: string;
  readonly language: string;
  /** Placeholder values in the template's variable order (already checked complete). */
  readonly parameters: readonly { readonly name: string; readonly value: string }[];
  /** The rendered body, for providers that send text (the sandbox) and for logs. */
  readonly renderedText: string;
}

export type FreeformContent =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'media';
      readonly mediaType: MediaType;
      /** The already-fetched and checked public URL: providers send media by link. */
      readonly url: string;
      /** Null for audio (the chat app shows no caption). */
      readonly caption: string | null;
      readonly filename: string | null;
    };

export interface ProviderMediaDownload {
  /** Throws `ChatappProviderRefusal` once more than the cap has arrived. */
  readonly body: AsyncIterable<Uint8Array>;
  readonly contentType: string | null;
}

/** The provider took the message; its id is what status items name. */
export interface ProviderAcceptance {
  readonly providerMessageId: string;
  readonly status: 'queued' | 'sent';
}

/**
 * The provider refused a send or a registration with a reason the user may read
 * (`SEND_FAILED`: "The chat app rejected the message: <reason>"). Any other thrown error is a
 * provider outage and is answered the same way with a generic reason.
 */
export class ChatappProviderRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ChatappProviderRefusal';
  }
}

/**
 * The chat app (WhatsApp-style) as voiceplane uses it: register a business number, submit a
 * template for approval, send approved templates and freeform messages. Every method either
 * answers or throws (`ChatappProviderRefusal` for a refusal with a reason).
 */
export interface ChatappProvider {
  /** `sandbox` or `whatsapp`: stored on senders as `provider`. */
  readonly name: 'sandbox' | 'whatsapp';
  registerSender(sender: ProviderSender, displayName: string): Promise<RegisteredSender>;
  submitTemplate(sender: ProviderSender, template: TemplateSubmission): Promise<SubmittedTemplate>;
  /** `reference`: voiceplane's message sid, kept by providers that can be asked about it later (`findSend`). */
  sendTemplate(
    sender: ProviderSender,
    to: string,
    template: TemplateMessage,
    reference?: string,
  ): Promise<ProviderAcceptance>;
  sendFreeform(
    sender: ProviderSender,
    to: string,
    content: FreeformContent,
    reference?: string,
  ): Promise<ProviderAcceptance>;
  /**
   * Whether the send given `reference` went out: its acceptance, null when it never did, or
   * `unknown` when this provider cannot be asked about one message.
   */
  findSend(sender: ProviderSender, to: string, reference: string): Promise<ProviderAcceptance | null | 'unknown'>;
  /**
   * A file a customer sent, by the provider's media id, opened at once (the provider's link
   * expires) and read as a stream. More than `maxBytes` is a refusal, announced or found while the
   * body is read; so is a provider that keeps no media (the sandbox).
   */
  downloadMedia(sender: ProviderSender, providerMediaId: string, maxBytes: number): Promise<ProviderMediaDownload>;
}

/** What the chat app says about calling on one number over SIP. */
export interface SipCallingSettings {
  /** Calling and SIP are both on and the SIP password is known: calls can be placed. */
  readonly enabled: boolean;
  /** The digest password Meta issues per number and app; null while calling is not enabled. */
  readonly sipPassword: string | null;
  /** Why calls cannot be placed, in words a user may read; null when `enabled`. */
  readonly reason: string | null;
}

/**
 * WhatsApp Business Calling over SIP for a number: the chat app dials our SIP server for
 * customer-initiated calls and accepts our INVITEs (digest-authenticated) for business-initiated ones.
 */
export interface ChatappSipCalling {
  /** Turns calling and SIP signalling on for the number, naming our SIP server; SRTP keys by SDES. */
  enableSipCalling(sender: ProviderSender, sipServerHost: string): Promise<void>;
  readSipCalling(sender: ProviderSender): Promise<SipCallingSettings>;
}

/**
 * One item the provider reported through its ingress, already verified and parsed into
 * product words. `providerItemId` deduplicates the inbox. Senders are named by the provider's
 * ref (WhatsApp `phone_number_id`) or, where the provider gives none, by phone number.
 */
export type ChatappInboundItem =
  | {
      readonly kind: 'customer_message';
      readonly providerItemId: string;
      readonly providerSenderRef: string;
      readonly customerPhone: string;
      readonly customerName: string | null;
      readonly text: string | null;
      readonly media: {
        readonly mediaType: MediaType;
        readonly providerMediaId: string;
        readonly caption: string | null;
      } | null;
      readonly receivedAt: Date;
    }
  | {
      readonly kind: 'message_status';
      readonly providerItemId: string;
      readonly providerMessageId: string;
      readonly status: MessageDeliveryUpdateStatus;
      readonly at: Date;
      readonly errorCode: string | null;
      readonly errorMessage: string | null;
    }
  | {
      readonly kind: 'template_status';
      readonly providerItemId: string;
      readonly providerTemplateRef: string;
      readonly status: TemplateStatus;
      readonly rejectionReason: string | null;
    }
  | {
      /** About the whole business account: every sender registered under it. */
      readonly kind: 'account_status';
      readonly providerItemId: string;
      readonly providerAccountRef: string;
      readonly status: 'online' | 'offline';
    }
  | {
      /** A number's quality or messaging limit changed; never its status. */
      readonly kind: 'sender_reach';
      readonly providerItemId: string;
      readonly providerSenderRef: string;
      readonly reach: SenderReach;
    }
  | {
      readonly kind: 'call_permission_reply';
      readonly providerItemId: string;
      readonly providerSenderRef: string;
      readonly customerPhone: string;
      readonly response: 'accept' | 'reject';
      readonly isPermanent: boolean;
      readonly expiresAt: Date | null;
      readonly at: Date;
    }
  | {
      readonly kind: 'call_event';
      readonly providerItemId: string;
      readonly providerSenderRef: string;
      readonly providerCallId: string;
      readonly event: 'connect' | 'terminate';
      readonly at: Date;
      /** The customer's number (E.164) on the other end of the call; absent or null when the chat app did not name it. */
      readonly customerPhone?: string | null;
      /** Terminate only: the chat app's end status, lower case, and the seconds it counted. */
      readonly status?: string | null;
      readonly duration?: number | null;
    };

/**
 * Where verified ingress items go (processed asynchronously from the inbox, once per
 * `providerItemId`). Items for unknown senders are dropped by the handler, not the ingress.
 */
export interface ChatappInboundHandler {
  handle(item: ChatappInboundItem): Promise<void>;
}
