export * from './ports';
export * from './campaign-settings';
export * from './campaign-events';
export * from './manage-campaigns';
export * from './manage-leads';
export * from './tokens';
export * from './campaign-dialer';
export * from './campaign-call-ends';
