export { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
