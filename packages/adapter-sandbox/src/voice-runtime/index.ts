export * from './sandbox-voice-runtime';
