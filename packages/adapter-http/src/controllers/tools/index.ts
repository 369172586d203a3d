export { ToolController } from './tool-controller';
export { ToolPreviewController } from './tool-preview-controller';
export { RuntimeToolCallController } from './runtime-tool-call-controller';
