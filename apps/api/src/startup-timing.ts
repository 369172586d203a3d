/**
 * `VOICEPLANE_STARTUP_TIMING=1` prints how long each start-up stage took (to stderr), so a slow
 * restart can be traced to module loading, the database, migrations, composition or seeding.
 * Without the flag every call is a no-op.
 */
const enabled = process.env.VOICEPLANE_STARTUP_TIMING === '1';
let last = performance.now();
let lastCpu = process.cpuUsage();

export function stage(name: string): void {
  if (!enabled) return;
  const now = performance.now();
  const cpu = process.cpuUsage();
  // CPU time beside wall time: on a busy machine the wall figure mostly measures the neighbours.
  const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
  process.stderr.write(
    `startup-timing ${name.padEnd(20)} +${(now - last).toFixed(0).padStart(5)} ms wall  +${cpuMs.toFixed(0).padStart(5)} ms cpu  (at ${now.toFixed(0)} ms)\n`,
  );
  last = now;
  lastCpu = cpu;
}
