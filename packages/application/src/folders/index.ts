export * from './ports';
export * from './manage-groups';
