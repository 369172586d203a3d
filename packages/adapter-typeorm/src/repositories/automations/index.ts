export { TypeormDataTableRepository } from './data-table-repository';
export { TypeormConnectionRepository } from './connection-repository';
export { TypeormAutomationRepository } from './automation-repository';
export { TypeormAutomationRunRepository } from './automation-run-repository';
export { TypeormAutomationToolBinding } from './automation-tool-binding';
