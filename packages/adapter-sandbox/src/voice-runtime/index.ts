export * from './sandbox-voice-runtime';
export * from './sandbox-recording';
