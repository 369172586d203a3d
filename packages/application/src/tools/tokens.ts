import { token } from '../common';
import type { InvokeToolForCall } from './invoke-tool-for-call';
import type { InvokeToolForConversation } from './invoke-tool-for-conversation';
import type { ManageTools } from './manage-tools';
import type { AutomationToolRunner, ToolCallContextSource, ToolInvocationLog, ToolRepository } from './ports';
import type { ToolGateway } from './tool-gateway';
import type { ToolPreview } from './tool-preview';

export const TOOL_TOKENS = {
  ToolRepository: token<ToolRepository>('ToolRepository'),
  ToolInvocationLog: token<ToolInvocationLog>('ToolInvocationLog'),
  /** Bound by the capability that owns calls; without it tool calls have no call behind them. */
  ToolCallContextSource: token<ToolCallContextSource>('ToolCallContextSource'),
  /** Bound by the automations capability when present. */
  AutomationToolRunner: token<AutomationToolRunner>('AutomationToolRunner'),
  ToolGateway: token<ToolGateway>('ToolGateway'),
  ToolPreview: token<ToolPreview>('ToolPreview'),
  ManageTools: token<ManageTools>('ManageTools'),
  InvokeToolForCall: token<InvokeToolForCall>('InvokeToolForCall'),
  InvokeToolForConversation: token<InvokeToolForConversation>('InvokeToolForConversation'),
} as const;
