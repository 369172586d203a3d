import { token } from '../common';
import type { ManageFolders } from './manage-folders';
import type { FolderRepository } from './ports';

/** Folders and labels follow the same rules, each in its own table. */
export const FOLDER_TOKENS = {
  FolderRepository: token<FolderRepository>('FolderRepository'),
  LabelRepository: token<FolderRepository>('LabelRepository'),
  ManageFolders: token<ManageFolders>('ManageFolders'),
  ManageLabels: token<ManageFolders>('ManageLabels'),
} as const;
