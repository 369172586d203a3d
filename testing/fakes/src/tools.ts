import { Tool, ToolFields, ToolType } from '@voiceplane/domain';
import { Clock, Page, PageRequest, ToolRepository } from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';

/**
 * HTTP tools in memory, with the semantics of the PostgreSQL repository (see the tool-repository
 * contract); times the database takes from `now()` come from `clock`. Deleting a tool does not
 * detach it from the assistant fake: tests that need that detach it there.
 */
export class InMemoryToolRepository implements ToolRepository {
  private readonly rows = new Map<number, Tool>();
  private lastId = 0;

  constructor(private readonly clock: Clock) {}

  async createWithinLimit(userId: number, fields: ToolFields, limit: number): Promise<Tool | null> {
    if ([...this.rows.values()].filter((t) => t.userId === userId).length >= limit) return null;
    const now = this.clock.now();
    const tool: Tool = {
      ...copy(fields),
      id: ++this.lastId,
      userId,
      type: 'http',
      automationId: null,
      createdAt: now,
      updatedAt: now,
    };
    this.rows.set(tool.id, tool);
    return copy(tool);
  }

  async findForUser(userId: number, id: number): Promise<Tool | null> {
    const tool = this.rows.get(id);
    return tool && tool.userId === userId ? copy(tool) : null;
  }

  async find(id: number): Promise<Tool | null> {
    const tool = this.rows.get(id);
    return tool ? copy(tool) : null;
  }

  async list(userId: number, page: PageRequest, type?: ToolType): Promise<Page<Tool>> {
    const matching = [...this.rows.values()]
      .filter((t) => t.userId === userId && (type === undefined || t.type === type))
      .sort((a, b) => b.id - a.id);
    return pageOf(
      matching.map((t) => copy(t)),
      page,
    );
  }

  async listByIds(userId: number, ids: readonly number[]): Promise<Tool[]> {
    return ids.flatMap((id) => {
      const tool = this.rows.get(id);
      return tool && tool.userId === userId ? [copy(tool)] : [];
    });
  }

  async update(userId: number, id: number, changes: Partial<ToolFields>): Promise<Tool | null> {
    const tool = this.rows.get(id);
    if (!tool || tool.userId !== userId) return null;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const next: Tool = { ...tool, ...copy(defined), updatedAt: this.clock.now() };
    this.rows.set(id, next);
    return copy(next);
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const tool = this.rows.get(id);
    return tool !== undefined && tool.userId === userId && this.rows.delete(id);
  }
}
