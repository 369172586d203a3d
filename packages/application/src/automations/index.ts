export * from './ports';
export * from './tokens';
export * from './automation-steps';
export * from './automation-engine';
export * from './apply-template';
export * from './automation-triggers';
export * from './check-connection';
