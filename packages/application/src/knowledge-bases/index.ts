export * from './ports';
export * from './manage-knowledge-bases';
export * from './process-document';
export * from './tokens';
export * from './knowledge-lookup';
export * from './search-knowledge-for-call';
export * from './backfill-embeddings';
