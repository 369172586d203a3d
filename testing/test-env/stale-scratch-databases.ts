import { currentCreator, onServer, SCRATCH_PREFIXES, type ScratchCreator } from './scratch-database';

/** A scratch database nobody uses and older than this is left over, whoever created it. */
export const STALE_AFTER_MS = 60 * 60_000;

interface Candidate {
  readonly name: string;
  readonly note: string | null;
  readonly sessions: number;
  /** From the database's files; null when the server does not let us read them. */
  readonly createdAt: Date | null;
}

/**
 * Why a scratch database may be dropped, or null to leave it. Only an unused one qualifies, and
 * then either its creator process is gone (known only on this host and PID namespace: a killed
 * run, noticed at once) or it is older than STALE_AFTER_MS (any host; a run's database lives
 * minutes). A concurrent run, on this machine or another, keeps its databases.
 */
export function staleReason(
  candidate: Candidate,
  here: ScratchCreator,
  isAlive: (pid: number) => boolean,
): string | null {
  if (candidate.sessions > 0) return null;
  const creator = parseCreator(candidate.note);
  if (creator && creator.host === here.host && creator.pidNamespace === here.pidNamespace && !isAlive(creator.pid)) {
    return `its creator (process ${creator.pid}) is gone`;
  }
  const created = creator?.created ?? candidate.createdAt?.getTime() ?? null;
  if (created !== null && here.created - created > STALE_AFTER_MS)
    return `created ${Math.round((here.created - created) / 60_000)} minutes ago`;
  return null;
}

/** Drops the scratch databases left by runs that were killed before they could drop them; returns what it dropped and why. */
export async function dropStaleScratchDatabases(serverUrl: string): Promise<string[]> {
  const like = SCRATCH_PREFIXES.map((prefix) => `datname LIKE '${prefix}\\_%'`).join(' OR ');
  const [rows] = await onServer<{ name: string; oid: number; note: string | null; sessions: number }>(serverUrl, [
    `SELECT d.datname AS name, d.oid::int AS oid, shobj_description(d.oid, 'pg_database') AS note,
            (SELECT count(*) FROM pg_stat_activity a WHERE a.datid = d.oid)::int AS sessions
       FROM pg_database d WHERE ${like}`,
  ]);
  const here = currentCreator();
  const dropped: string[] = [];
  for (const row of rows) {
    const reason = staleReason(
      { ...row, createdAt: row.note ? null : await createdAt(serverUrl, row.oid) },
      here,
      isAlive,
    );
    if (!reason) continue;
    // Without FORCE: if anyone connected since we looked, the drop fails and the database stays.
    const done = await onServer(serverUrl, [`DROP DATABASE IF EXISTS ${row.name}`]).then(
      () => true,
      () => false,
    );
    if (done) dropped.push(`${row.name} (${reason})`);
  }
  return dropped;
}

function parseCreator(note: string | null): ScratchCreator | null {
  if (!note) return null;
  try {
    const value = JSON.parse(note) as Partial<ScratchCreator>;
    if (typeof value.host !== 'string' || typeof value.pid !== 'number' || typeof value.created !== 'number')
      return null;
    return { host: value.host, pid: value.pid, created: value.created, pidNamespace: value.pidNamespace ?? null };
  } catch {
    return null;
  }
}

/** When a database without a creator note (made before notes existed) was created: its PG_VERSION file is written once. */
async function createdAt(serverUrl: string, oid: number): Promise<Date | null> {
  return onServer<{ at: Date }>(serverUrl, [`SELECT (pg_stat_file('base/${oid}/PG_VERSION')).modification AS at`]).then(
    ([[row]]) => row?.at ?? null,
    () => null,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
