export { DataTableController, dataTableRouteDocs } from './data-table-controller';
export { ConnectionController, connectionRouteDocs } from './connection-controller';
export { TemplateController, templateRouteDocs } from './template-controller';
export { FlowRunController, flowRunRouteDocs } from './flow-run-controller';
export { SandboxAutomationController, sandboxAutomationRouteDocs } from './sandbox-automation-controller';
export { FlowController, flowRouteDocs } from './flow-controller';
export { AutomationHookController, automationHookRouteDocs } from './automation-hook-controller';
