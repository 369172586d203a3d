export {};
export * from './livekit-sip-provisioner';
export * from './voice-runtime';
