export { TypeormCallRepository } from './call-repository';
export { TypeormCallToolContext } from './call-tool-context';
export { TypeormChatappCallReportRepository } from './chatapp-call-report-repository';
