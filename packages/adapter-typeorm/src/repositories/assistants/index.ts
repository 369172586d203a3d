export { TypeormAssistantRepository } from './assistant-repository';
export { TypeormCatalogRepository } from './catalog-repository';
export { TypeormFolderRepository } from './folder-repository';

export { TypeormEventTypeRepository } from './event-type-repository';
