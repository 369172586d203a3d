import { AssistantConfig, AssistantStatus } from './assistant';

/** A stored assistant: its configuration plus what only the system sets. */
export interface Assistant extends AssistantConfig {
  readonly id: number;
  /** Stable public name of the assistant (the chatbot routes and the widget name it by this). */
  readonly uuid: string;
  readonly userId: number;
  readonly status: AssistantStatus;
  readonly complianceBlocked: boolean;
  /** Where the post-call body of each inbound call goes as well (set by its own switch, not by updates). */
  readonly inboundWebhookUrl: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The fixed item of `GET /assistants/outbound`: read on every dial-out screen. */
export type OutboundAssistant = Pick<
  Assistant,
  | 'id'
  | 'userId'
  | 'name'
  | 'type'
  | 'mode'
  | 'status'
  | 'voiceId'
  | 'languageId'
  | 'timezone'
  | 'initialMessage'
  | 'systemPrompt'
  | 'variables'
  | 'webhookUrl'
  | 'isWebhookActive'
  | 'createdAt'
  | 'updatedAt'
>;
