import { GroupColor } from '@voiceplane/domain';
import { Page, PageRequest } from '../common/page';

/** A folder or a label: both group assistants and follow the same rules. */
export interface AssistantGroup {
  readonly id: number;
  readonly name: string;
  readonly color: GroupColor | null;
  readonly assistantsCount: number;
}

/** Another group of the account already has the name (case-insensitive). */
export type GroupNameTaken = 'name_taken';

export interface AssistantGroupRepository {
  create(userId: number, group: { name: string; color: GroupColor | null }): Promise<AssistantGroup | GroupNameTaken>;
  /** Ordered by name (case-insensitive), then id. */
  list(userId: number, page: PageRequest): Promise<Page<AssistantGroup>>;
  /** Null when the user has no such group; only the sent fields change. */
  update(
    userId: number,
    id: number,
    changes: { name?: string; color?: GroupColor | null },
  ): Promise<AssistantGroup | GroupNameTaken | null>;
  exists(userId: number, id: number): Promise<boolean>;
  /** Assistants of the group stay; they just leave it. */
  delete(userId: number, id: number): Promise<boolean>;
}
