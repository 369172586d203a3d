/** The server's semantic version: X-API-Version, /api/health, User-Agent of outgoing requests. */
export const VERSION = '1.0.0';
