export { TypeormToolRepository } from './tool-repository';
export { TypeormToolInvocationLog, type InvocationLogErrors } from './tool-invocation-log';
