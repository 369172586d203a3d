export { DataTableController } from './data-table-controller';
export { ConnectionController } from './connection-controller';
export { TemplateController } from './template-controller';
export { FlowRunController } from './flow-run-controller';
export { SandboxAutomationController } from './sandbox-automation-controller';
export { FlowController } from './flow-controller';
export { AutomationHookController } from './automation-hook-controller';
