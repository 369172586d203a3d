export { LocalFileMediaStore } from './local-file-media-store';
export { S3MediaStore, type S3MediaStoreOptions } from './s3-media-store';
