export { ToolController, toolRouteDocs } from './tool-controller';
export { ToolPreviewController, toolPreviewRouteDocs } from './tool-preview-controller';
export { RuntimeToolCallController, runtimeToolCallRouteDocs } from './runtime-tool-call-controller';
