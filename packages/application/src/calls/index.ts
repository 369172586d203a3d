export * from './ports';
export * from './caller-lines';
export * from './call-configurations';
export * from './end-call';
export * from './record-call-event';
export * from './make-call';
export * from './accept-inbound-call';
export * from './sandbox-text-call';
