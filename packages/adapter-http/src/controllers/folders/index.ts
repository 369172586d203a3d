export { FolderController } from './folder-controller';
export { LabelController } from './label-controller';
