import { token } from '../common/token';
import type { ApplyTemplate } from './apply-template';
import type { AutomationEngine } from './automation-engine';
import type { FlowQueries } from './flow-queries';
import type { ManageConnections } from './manage-connections';
import type { ManageDataTables } from './manage-data-tables';
import type { ManageFlows } from './manage-flows';
import type { RestoreFlow } from './restore-flow';
import type { RetryRun } from './retry-run';
import type { RunQueries } from './run-queries';
import type { SandboxAutomationControls } from './sandbox-automation-controls';
import type { UpdateFlow } from './update-flow';
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
  FlowQueries: token<FlowQueries>('FlowQueries'),
  ManageFlows: token<ManageFlows>('ManageFlows'),
  UpdateFlow: token<UpdateFlow>('UpdateFlow'),
  RestoreFlow: token<RestoreFlow>('RestoreFlow'),
  RetryRun: token<RetryRun>('RetryRun'),
  RunQueries: token<RunQueries>('RunQueries'),
  /** Bound only while a provider is the sandbox (resume-now, connection status). */
  SandboxAutomationControls: token<SandboxAutomationControls>('SandboxAutomationControls'),
  TriggerWebhook: token<TriggerWebhook>('TriggerWebhook'),
} as const;
