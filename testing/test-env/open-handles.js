// What keeps this process alive, in words a test author can act on.
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

module.exports = { openHandles };
