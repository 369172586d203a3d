export { CallController } from './call-controller';
export { RuntimeCallController } from './runtime-call-controller';
export { SandboxCallController } from './sandbox-call-controller';
export { CallRecordingController, LiveKitRecordingController } from './call-recording-controller';
