export { DataTableController } from './data-table-controller';
export { ConnectionController } from './connection-controller';
export { TemplateController } from './template-controller';
export { AutomationRunController } from './automation-run-controller';
export { SandboxAutomationController } from './sandbox-automation-controller';
export { AutomationController } from './automation-controller';
export { AutomationHookController } from './automation-hook-controller';
