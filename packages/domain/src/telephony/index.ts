export * from './sip-trunk';
export * from './reprovisioning';
export * from './network-address';
export * from './countries';
export * from './phone-format';
export * from './number-offers';
