import { FolderColor } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';

/** A folder or a label: both group assistants and follow the same rules. */
export interface Folder {
  readonly id: number;
  readonly name: string;
  readonly color: FolderColor | null;
  readonly assistantsCount: number;
}

/** Another folder of the account already has the name (case-insensitive). */
export type FolderNameTaken = 'name_taken';

export interface FolderRepository {
  create(userId: number, folder: { name: string; color: FolderColor | null }): Promise<Folder | FolderNameTaken>;
  /** Ordered by name (case-insensitive), then id. */
  list(userId: number, page: PageRequest): Promise<Page<Folder>>;
  /** Null when the user has no such folder; only the sent fields change. */
  update(
    userId: number,
    id: number,
    changes: { name?: string; color?: FolderColor | null },
  ): Promise<Folder | FolderNameTaken | null>;
  exists(userId: number, id: number): Promise<boolean>;
  /** Assistants of the folder stay; they just leave it. */
  delete(userId: number, id: number): Promise<boolean>;
}
