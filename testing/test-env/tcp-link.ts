import net from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of a real service (RabbitMQ here), so a fault test can cut
 * every live connection — as a network failure or a broker restart would — and refuse new ones
 * for a while.
 */
export class TcpLink {
  connectionsAccepted = 0;
  private refusing = false;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async open(target: { host: string; port: number }): Promise<TcpLink> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const link = new TcpLink(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (client) => link.relay(client, target));
    return link;
  }

  /** `url` with its host and port replaced by this link's. */
  through(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Destroys every relayed connection; returns how many there were. */
  sever(): number {
    const count = this.pairs.size;
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    return count;
  }

  refuse(): void {
    this.refusing = true;
  }

  accept(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.sever();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: net.Socket, target: { host: string; port: number }): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    this.connectionsAccepted++;
    const upstream = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    for (const socket of pair) {
      socket.on('error', end);
      socket.on('close', end);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
