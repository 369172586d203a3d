import { stopContainers } from './containers';

export default async function globalTeardown(): Promise<void> {
  // Each integration file drops what it created; only the run's containers remain to stop.
  await stopContainers();
}
