export { loadConfig, loadConfigOrExit, ConfigError, PRIVATE_TARGETS_WARNING, type Config } from './config';
export { composeApi, type ApiRuntime, type ComposeDependencies } from './compose';
export { VERSION } from './version';
export type { BackgroundTask } from './modules';
