import { FolderColor } from '@voiceplane/domain';
import { Folder, FolderRepository, FolderNameTaken, Page, PageRequest } from '@voiceplane/application';
import { InMemoryAssistantRepository } from './assistants';
import { pageOf } from './paging';

type Row = { id: number; userId: number; name: string; color: FolderColor | null };

/**
 * Folders or labels in memory, with the semantics of the PostgreSQL repository (see the folder
 * contract): names unique per account ignoring case, as the tables' index. With `assistants`,
 * folders count the assistants filed in them and a deleted folder's assistants leave it; without,
 * every folder holds none.
 */
export class InMemoryFolderRepository implements FolderRepository {
  private readonly rows = new Map<number, Row>();
  private lastId = 0;

  constructor(
    private readonly kind: 'folders' | 'labels',
    private readonly assistants: InMemoryAssistantRepository | null = null,
  ) {}

  async create(userId: number, folder: { name: string; color: FolderColor | null }): Promise<Folder | FolderNameTaken> {
    if (this.taken(userId, folder.name, null)) return 'name_taken';
    const row: Row = { id: ++this.lastId, userId, name: folder.name, color: folder.color };
    this.rows.set(row.id, row);
    return this.toFolder(row);
  }

  async list(userId: number, page: PageRequest): Promise<Page<Folder>> {
    const mine = [...this.rows.values()]
      .filter((r) => r.userId === userId)
      .sort((a, b) => byLowerName(a.name, b.name) || a.id - b.id);
    return pageOf(await Promise.all(mine.map((r) => this.toFolder(r))), page);
  }

  async update(
    userId: number,
    id: number,
    changes: { name?: string; color?: FolderColor | null },
  ): Promise<Folder | FolderNameTaken | null> {
    const row = this.owned(userId, id);
    if (!row) return null;
    if (changes.name !== undefined && this.taken(userId, changes.name, id)) return 'name_taken';
    if (changes.name !== undefined) row.name = changes.name;
    if (changes.color !== undefined) row.color = changes.color;
    return this.toFolder(row);
  }

  async exists(userId: number, id: number): Promise<boolean> {
    return this.owned(userId, id) !== undefined;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    if (!this.owned(userId, id)) return false;
    this.rows.delete(id);
    this.assistants?.leaveGroup(this.kind, id);
    return true;
  }

  private owned(userId: number, id: number): Row | undefined {
    const row = this.rows.get(id);
    return row?.userId === userId ? row : undefined;
  }

  private taken(userId: number, name: string, except: number | null): boolean {
    return [...this.rows.values()].some(
      (r) => r.userId === userId && r.id !== except && r.name.toLowerCase() === name.toLowerCase(),
    );
  }

  private async toFolder(row: Row): Promise<Folder> {
    const filter = this.kind === 'folders' ? { folderId: row.id } : { labelId: row.id };
    const assistantsCount = this.assistants ? (await this.assistants.listAll(row.userId, filter)).length : 0;
    return { id: row.id, name: row.name, color: row.color, assistantsCount };
  }
}

/** `lower(name)` order; the code-point comparison matches the C collation only for ASCII names, which the contract uses. */
function byLowerName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}
