export { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
export { startEmbeddedPostgresThread } from './embedded-thread';
