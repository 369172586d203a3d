export * from './campaign';
export * from './campaign-status';
export * from './calling-window';
export * from './attempt-outcome';
export * from './lead-group';
export * from './do-not-call';
export * from './lead-timezone';
