export { TypeormCallRepository } from './call-repository';
export { TypeormCallToolContext } from './call-tool-context';
