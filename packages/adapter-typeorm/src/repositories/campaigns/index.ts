export * from './campaign-repository';
export * from './lead-repository';
