import { err, FieldErrors, FolderColor, FolderRefusal, ok, Result } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { UnitOfWork } from '../ports';
import { Folder, FolderRepository } from './ports';

/** Only the sent fields change; a null color clears it. */
export interface FolderChanges {
  readonly name?: string;
  readonly color?: FolderColor | null;
}

/** The request's own field problems, answered only once the folder is known to be the caller's. */
export interface InvalidFolderFields {
  readonly code: 'invalid_fields';
  readonly errors: FieldErrors;
}

export type FolderUpdateRefusal = FolderRefusal | InvalidFolderFields;

/**
 * An account's folders or labels (one instance for each): names unique in the account ignoring
 * case, another account's folder never reached.
 */
export class ManageFolders {
  constructor(
    private readonly folders: FolderRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Concludes in the folder's own commit, so the answer naming its id is stored with it. */
  create(
    userId: number,
    folder: { readonly name: string; readonly color: FolderColor | null },
  ): Promise<Result<Folder, 'name_taken'>> {
    return this.uow.transaction(
      async () => {
        const created = await this.folders.create(userId, { name: folder.name, color: folder.color });
        return created === 'name_taken' ? err('name_taken' as const) : ok(created);
      },
      { concludes: true },
    );
  }

  list(userId: number, page: PageRequest): Promise<Page<Folder>> {
    return this.folders.list(userId, page);
  }

  /** `changes` is the request's shape: its errors, when it had some. A missing folder is not found even then. */
  async update(
    userId: number,
    id: number,
    changes: Result<FolderChanges, FieldErrors>,
  ): Promise<Result<Folder, FolderUpdateRefusal>> {
    if (!changes.ok) {
      return (await this.folders.exists(userId, id))
        ? err({ code: 'invalid_fields', errors: changes.error })
        : err('not_found');
    }
    const updated = await this.folders.update(userId, id, { name: changes.value.name, color: changes.value.color });
    if (updated === null) return err('not_found');
    return updated === 'name_taken' ? err('name_taken') : ok(updated);
  }

  async delete(userId: number, id: number): Promise<Result<true, 'not_found'>> {
    return (await this.folders.delete(userId, id)) ? ok(true) : err('not_found');
  }
}
