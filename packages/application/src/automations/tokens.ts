import { token } from '../shared/token';
import type { ApplyTemplate } from './apply-template';
import type { AutomationEngine } from './automation-engine';
import type {
  AutomationChatapp, AutomationRepository, AutomationRunRepository, AutomationToolBinding, ConnectionRepository, DataTableRepository,
} from './ports';

export const AUTOMATION_TOKENS = {
  DataTableRepository: token<DataTableRepository>('DataTableRepository'),
  ConnectionRepository: token<ConnectionRepository>('ConnectionRepository'),
  AutomationRepository: token<AutomationRepository>('AutomationRepository'),
  AutomationRunRepository: token<AutomationRunRepository>('AutomationRunRepository'),
  AutomationToolBinding: token<AutomationToolBinding>('AutomationToolBinding'),
  /** Bound by the chat-app capability; without it chat-app templates refuse on `sender_id`. */
  AutomationChatapp: token<AutomationChatapp>('AutomationChatapp'),
  AutomationEngine: token<AutomationEngine>('AutomationEngine'),
  ApplyTemplate: token<ApplyTemplate>('ApplyTemplate'),
} as const;
