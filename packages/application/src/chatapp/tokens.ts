import { token } from '../common';
import type { ApplyDeliveryStatus } from './apply-delivery-status';
import type { CreateTemplate } from './create-template';
import type { ChatappCallingLines } from './calling-lines';
import type { InboundMediaDownloads, InboundMediaRepository, MediaStore } from './inbound-media';
import type { ChatappMessageRepository, SenderRepository, TemplateRepository } from './ports';
import type { ChatappInboundHandler, ChatappProvider } from './provider-ports';
import type { ReplyGenerator } from '../conversation-policy';
import type { ReceiveCustomerMessage } from './receive-customer-message';
import type { RegisterSender } from './register-sender';
import type { SandboxChatappState } from './sandbox-ports';
import type { SendFreeformMessage } from './send-freeform-message';
import type { SendTemplateMessage } from './send-template-message';
import type { SendReservationRepository } from './send-reservations';
import type { SendReservationSweep } from './send-reservation-sweep';
import type { UpdateSender } from './update-sender';
import type { ManageSenders } from './manage-senders';
import type { ChatappMessageQueries } from './chatapp-message-queries';
import type { SandboxChatappControls } from './sandbox-chatapp-controls';

export const CHATAPP_TOKENS = {
  ChatappProvider: token<ChatappProvider>('ChatappProvider'),
  ReplyGenerator: token<ReplyGenerator>('ReplyGenerator'),
  /** What the provider ingress hands its inbox items to. */
  ChatappInboundHandler: token<ChatappInboundHandler>('ChatappInboundHandler'),
  SenderRepository: token<SenderRepository>('SenderRepository'),
  TemplateRepository: token<TemplateRepository>('TemplateRepository'),
  ChatappMessageRepository: token<ChatappMessageRepository>('ChatappMessageRepository'),
  SendReservationRepository: token<SendReservationRepository>('SendReservationRepository'),
  /** Settles sends whose process died between reservation and settlement. */
  SendReservationSweep: token<SendReservationSweep>('SendReservationSweep'),
  RegisterSender: token<RegisterSender>('RegisterSender'),
  UpdateSender: token<UpdateSender>('UpdateSender'),
  CreateTemplate: token<CreateTemplate>('CreateTemplate'),
  /** Senders and their templates as the API reads and changes them, the caller's only. */
  ManageSenders: token<ManageSenders>('ManageSenders'),
  ChatappMessageQueries: token<ChatappMessageQueries>('ChatappMessageQueries'),
  /** Also the automations' `chatapp.send_template` step (source `automation`). */
  SendTemplateMessage: token<SendTemplateMessage>('SendTemplateMessage'),
  SendFreeformMessage: token<SendFreeformMessage>('SendFreeformMessage'),
  ApplyDeliveryStatus: token<ApplyDeliveryStatus>('ApplyDeliveryStatus'),
  ReceiveCustomerMessage: token<ReceiveCustomerMessage>('ReceiveCustomerMessage'),
  /** Files customers sent: voiceplane's copies (files or an S3-compatible bucket), their records, the downloads. */
  MediaStore: token<MediaStore>('MediaStore'),
  InboundMediaRepository: token<InboundMediaRepository>('InboundMediaRepository'),
  InboundMediaDownloads: token<InboundMediaDownloads>('InboundMediaDownloads'),
  /** Bound only with a real chat app and the LiveKit runtime: chat-app calls are calls in the chat app. */
  ChatappCallingLines: token<ChatappCallingLines>('ChatappCallingLines'),
  /** Bound only while the chat-app provider is the sandbox. */
  SandboxChatappState: token<SandboxChatappState>('SandboxChatappState'),
  /** Bound only while the chat-app provider is the sandbox. */
  SandboxChatappControls: token<SandboxChatappControls>('SandboxChatappControls'),
} as const;
