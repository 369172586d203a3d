import { FolderColor } from '@voiceplane/domain';
import { Folder, FolderRepository, FolderNameTaken, Page, PageRequest } from '@voiceplane/application';
import { Database } from '../../database';
import { FolderRecord } from '../../records';
import { Count, isUniqueViolation, num, pageClause, unlessFails } from '../rows';
import { Counted, totalOf } from './paging';

/** How many of the user's assistants a folder holds: folders by column, labels by join table. */
const COUNT_SQL = {
  folders: '(SELECT count(*) FROM assistants a WHERE a.folder_id = g.id)',
  labels: '(SELECT count(*) FROM assistant_labels al WHERE al.label_id = g.id)',
} as const;

/** The columns of `columns` below: the folder and how many assistants it holds. */
type FolderRow = Pick<FolderRecord, 'id' | 'name' | 'color'> & { assistants_count: string };

function toFolder(r: FolderRow): Folder {
  return {
    id: num(r.id),
    name: r.name,
    color: r.color as FolderColor | null,
    assistantsCount: num(r.assistants_count),
  };
}

/** Folders and labels: the same table shape, names unique per account ignoring case. */
export class TypeormFolderRepository implements FolderRepository {
  private readonly columns: string;

  constructor(
    private readonly db: Database,
    private readonly table: keyof typeof COUNT_SQL,
  ) {
    this.columns = `g.id, g.name, g.color, ${COUNT_SQL[table]} AS assistants_count`;
  }

  async create(userId: number, folder: { name: string; color: FolderColor | null }): Promise<Folder | FolderNameTaken> {
    return this.unlessNameTaken(async () => {
      const rows = await this.db.query<Pick<FolderRecord, 'id'>>(
        `INSERT INTO ${this.table} (user_id, name, color) VALUES ($1, $2, $3) RETURNING id`,
        [userId, folder.name, folder.color],
      );
      return { id: num(rows[0].id), name: folder.name, color: folder.color, assistantsCount: 0 };
    });
  }

  async list(userId: number, page: PageRequest): Promise<Page<Folder>> {
    const limit = pageClause(page, 2);
    const rows = await this.db.query<FolderRow & Counted>(
      `SELECT ${this.columns}, count(*) OVER () AS total FROM ${this.table} g WHERE g.user_id = $1 ORDER BY lower(g.name), g.id ${limit.sql}`,
      [userId, ...limit.params],
    );
    return {
      items: rows.map(toFolder),
      total: await totalOf(rows, () =>
        this.db.one<Count>(`SELECT count(*) AS n FROM ${this.table} WHERE user_id = $1`, [userId]),
      ),
    };
  }

  async update(
    userId: number,
    id: number,
    changes: { name?: string; color?: FolderColor | null },
  ): Promise<Folder | FolderNameTaken | null> {
    return this.unlessNameTaken(async () => {
      const rows = await this.db.query<FolderRow>(
        `UPDATE ${this.table} g
            SET name = coalesce($3, g.name),
                color = CASE WHEN $4::boolean THEN $5 ELSE g.color END,
                updated_at = now()
          WHERE g.user_id = $1 AND g.id = $2
          RETURNING ${this.columns}`,
        [userId, id, changes.name ?? null, changes.color !== undefined, changes.color ?? null],
      );
      return rows[0] ? toFolder(rows[0]) : null;
    });
  }

  async exists(userId: number, id: number): Promise<boolean> {
    return (
      (await this.db.one<Pick<FolderRecord, 'id'>>(`SELECT id FROM ${this.table} WHERE user_id = $1 AND id = $2`, [
        userId,
        id,
      ])) !== null
    );
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.query<Pick<FolderRecord, 'id'>>(
      `DELETE FROM ${this.table} WHERE user_id = $1 AND id = $2 RETURNING id`,
      [userId, id],
    );
    return rows.length > 0;
  }

  private unlessNameTaken<T>(write: () => Promise<T>): Promise<T | FolderNameTaken> {
    return unlessFails(this.db, write, isUniqueViolation, 'name_taken' as const);
  }
}
