// Jest waits for the event loop to empty before it exits, so a test that leaves a connection, a
// server or a timer behind makes the run hang after its last line. --forceExit would end it but
// hide the leak, and --detectOpenHandles runs every file in band, slowly. This reporter does
// neither: if the process is still alive EXIT_CEILING_MS after the run (global teardown included)
// it names what is holding it open and fails the run. When nothing leaks, its unref'd timer never
// fires and costs nothing.
const EXIT_CEILING_MS = Number(process.env.JEST_EXIT_CEILING_MS ?? 30_000);

const SERVICES = { 5432: 'PostgreSQL', 5672: 'RabbitMQ' };

function describeHandle(handle) {
  if (handle === process.stdin || handle === process.stdout || handle === process.stderr) return null;
  const kind = handle?.constructor?.name ?? typeof handle;
  if (kind === 'Socket' || kind === 'TLSSocket') {
    if (!handle.remotePort) return handle.destroyed ? null : `${kind} (not connected)`;
    const service = SERVICES[handle.remotePort] ? ` (${SERVICES[handle.remotePort]})` : '';
    return `${kind} to ${handle.remoteAddress}:${handle.remotePort}${service} from port ${handle.localPort}`;
  }
  if (kind === 'Server') {
    const address = handle.address();
    return `Server listening on ${address && typeof address === 'object' ? `${address.address}:${address.port}` : address}`;
  }
  if (kind === 'ChildProcess') return `child process ${handle.pid} (${handle.spawnfile})`;
  return kind;
}

function openHandles() {
  const described = process._getActiveHandles().map(describeHandle).filter(Boolean);
  const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  if (timers > 0) described.push(`${timers} timer(s) (setTimeout/setInterval not cleared or unref'd)`);
  return described;
}

class OpenHandlesReporter {
  onRunComplete() {
    setTimeout(() => {
      const handles = openHandles();
      process.stderr.write(
        `\nJest has not exited ${EXIT_CEILING_MS / 1000} s after the run: something a test opened was not closed.\n` +
          `Still open:\n${handles.map((h) => `  - ${h}`).join('\n') || '  (nothing Node can name)'}\n` +
          'Close connections, servers and timers in afterAll or in a finally block (see docs/testing.md). Failing the run.\n',
      );
      process.exit(1);
    }, EXIT_CEILING_MS).unref();
  }
}
module.exports = OpenHandlesReporter;
