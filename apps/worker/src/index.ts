export { startWorker, type RunningWorker, type WorkerOptions } from './worker';
