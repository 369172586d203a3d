import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in microseconds, from /proc/<pid>/stat; null
 * where there is no /proc. On a machine shared with other work this is steadier than wall time: what
 * one request costs the process, whatever else competes for the cores.
 */
export function cpuMicros(pid: number): number | null {
  try {
    // Fields after the parenthesised command name (which may itself hold spaces): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
