export * from './livekit-voice-runtime';
