export * from './ports';
export * from './manage-folders';
