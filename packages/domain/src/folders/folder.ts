/** Folders and labels group assistants; both share these rules. */
export const FOLDER_COLORS = [
  'gray',
  'slate',
  'red',
  'orange',
  'amber',
  'green',
  'teal',
  'blue',
  'purple',
  'pink',
] as const;
export type FolderColor = (typeof FOLDER_COLORS)[number];
export const FOLDER_NAME_MAX = 255;

/** Refusals of folder and label writes: names are unique per account, ignoring case. */
export type FolderRefusal = 'not_found' | 'name_taken';
