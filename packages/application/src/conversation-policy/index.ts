export * from './instructions';
export * from './tool-functions';
