export {};
export * from './livekit-sip-provisioner';
export * from './voice-runtime';
export * from './call-recording';
