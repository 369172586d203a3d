export { LocalFileMediaStore } from './local-file-media-store';
