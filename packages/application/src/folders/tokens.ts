import { token } from '../common/token';
import type { ManageGroups } from './manage-groups';
import type { AssistantGroupRepository } from './ports';

/** Folders and labels follow the same rules, each in its own table. */
export const FOLDER_TOKENS = {
  FolderRepository: token<AssistantGroupRepository>('FolderRepository'),
  LabelRepository: token<AssistantGroupRepository>('LabelRepository'),
  ManageFolders: token<ManageGroups>('ManageFolders'),
  ManageLabels: token<ManageGroups>('ManageLabels'),
} as const;
