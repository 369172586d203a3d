/** Folders and labels group assistants; both share these rules. */
export const GROUP_COLORS = [
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
export type GroupColor = (typeof GROUP_COLORS)[number];
export const GROUP_NAME_MAX = 255;

/** Refusals of folder and label writes: names are unique per account, ignoring case. */
export type GroupRefusal = 'not_found' | 'name_taken';
