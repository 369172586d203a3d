import { Connection } from '@voiceplane/domain';
import { ConnectionFields, ConnectionRepository } from '@voiceplane/application';
import { copy } from './copy';

/** HTTP API connections in memory, with the semantics of the PostgreSQL repository (see the connections contract). */
export class InMemoryConnectionRepository implements ConnectionRepository {
  private readonly connections = new Map<number, Connection>();
  private lastId = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  async create(userId: number, fields: ConnectionFields): Promise<Connection> {
    const at = this.now();
    const connection: Connection = {
      ...copy(fields),
      id: ++this.lastId,
      userId,
      status: 'connected',
      lastCheckedAt: null,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    };
    this.connections.set(connection.id, connection);
    return copy(connection);
  }

  async find(userId: number, id: number): Promise<Connection | null> {
    const connection = this.connections.get(id);
    return connection && connection.userId === userId ? copy(connection) : null;
  }

  async list(userId: number): Promise<Connection[]> {
    return [...this.connections.values()]
      .filter((c) => c.userId === userId)
      .sort((a, b) => b.id - a.id)
      .map(copy);
  }

  async update(
    userId: number,
    id: number,
    changes: Partial<ConnectionFields>,
    reset: boolean,
  ): Promise<Connection | null> {
    const connection = this.connections.get(id);
    if (!connection || connection.userId !== userId) return null;
    const defined = Object.fromEntries(
      Object.entries(changes).filter(([, v]) => v !== undefined),
    ) as Partial<ConnectionFields>;
    const updated: Connection = {
      ...connection,
      ...copy(defined),
      ...(reset ? { status: 'connected', lastError: null } : {}),
      updatedAt: this.now(),
    };
    this.connections.set(id, updated);
    return copy(updated);
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const connection = this.connections.get(id);
    return connection !== undefined && connection.userId === userId && this.connections.delete(id);
  }

  async recordCheck(id: number, status: Connection['status'], error: string | null, at: Date): Promise<void> {
    const connection = this.connections.get(id);
    if (connection)
      this.connections.set(id, {
        ...connection,
        status,
        lastError: error,
        lastCheckedAt: new Date(at),
        updatedAt: this.now(),
      });
  }
}
