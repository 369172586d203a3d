export * from './amount-rules';
export * from './top-up';
export * from './settlement';
export * from './auto-recharge';
export * from './recharge-policy';
export * from './reconciliation';
