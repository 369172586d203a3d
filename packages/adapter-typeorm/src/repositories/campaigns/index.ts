export * from './campaign-repository';
export * from './lead-repository';
export * from './do-not-call-list';
