export { CallController, callRouteDocs } from './call-controller';
export { RuntimeCallController, runtimeCallRouteDocs } from './runtime-call-controller';
export { SandboxCallController, sandboxCallRouteDocs } from './sandbox-call-controller';
export { CallRecordingController, callRecordingRouteDocs, LiveKitRecordingController, liveKitRecordingRouteDocs } from './call-recording-controller';
