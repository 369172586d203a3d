export * from './documents';
export * from './limits';
export * from './chunking';
export * from './ranking';
export * from './document-text';
