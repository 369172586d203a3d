import { token } from '../common';
import type { ApplyTemplate } from './apply-template';
import type { AutomationEngine } from './automation-engine';
import type { AutomationQueries } from './automation-queries';
import type { ManageConnections } from './manage-connections';
import type { ManageDataTables } from './manage-data-tables';
import type { ManageAutomations } from './manage-automations';
import type { RestoreAutomation } from './restore-automation';
import type { RetryRun } from './retry-run';
import type { RunQueries } from './run-queries';
import type { SandboxAutomationControls } from './sandbox-automation-controls';
import type { UpdateAutomation } from './update-automation';
import type { TriggerWebhook } from './webhook-trigger';
import type {
  AutomationChatapp,
  AutomationRepository,
  AutomationRunRepository,
  AutomationToolBinding,
  ConnectionRepository,
  DataTableRepository,
} from './ports';

export const AUTOMATION_TOKENS = {
  DataTableRepository: token<DataTableRepository>('DataTableRepository'),
  ConnectionRepository: token<ConnectionRepository>('ConnectionRepository'),
  AutomationRepository: token<AutomationRepository>('AutomationRepository'),
  AutomationRunRepository: token<AutomationRunRepository>('AutomationRunRepository'),
  AutomationToolBinding: token<AutomationToolBinding>('AutomationToolBinding'),
  /** Bound by the chat-app capability; without it chat-app templates refuse on `sender_id`. */
  AutomationChatapp: token<AutomationChatapp>('AutomationChatapp'),
  ManageDataTables: token<ManageDataTables>('ManageDataTables'),
  ManageConnections: token<ManageConnections>('ManageConnections'),
  AutomationEngine: token<AutomationEngine>('AutomationEngine'),
  ApplyTemplate: token<ApplyTemplate>('ApplyTemplate'),
  AutomationQueries: token<AutomationQueries>('AutomationQueries'),
  ManageAutomations: token<ManageAutomations>('ManageAutomations'),
  UpdateAutomation: token<UpdateAutomation>('UpdateAutomation'),
  RestoreAutomation: token<RestoreAutomation>('RestoreAutomation'),
  RetryRun: token<RetryRun>('RetryRun'),
  RunQueries: token<RunQueries>('RunQueries'),
  /** Bound only while a provider is the sandbox (resume-now, connection status). */
  SandboxAutomationControls: token<SandboxAutomationControls>('SandboxAutomationControls'),
  TriggerWebhook: token<TriggerWebhook>('TriggerWebhook'),
} as const;
