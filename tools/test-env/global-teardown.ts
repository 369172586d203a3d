export default async function globalTeardown(): Promise<void> {
  // Each integration file drops what it created; nothing is shared across files.
}
