export { TypeormCallPermissionRepository } from './call-permission-repository';
