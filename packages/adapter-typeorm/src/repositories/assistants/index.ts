export { TypeormAssistantRepository } from './assistant-repository';
export { TypeormCatalogRepository } from './catalog-repository';
export { TypeormGroupRepository } from './group-repository';

export { TypeormEventTypeRepository } from './event-type-repository';
