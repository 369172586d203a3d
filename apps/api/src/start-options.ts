// Type only: the entry parses its options before anything heavy loads (the domain's index is ~200 modules).
import type { Result } from '@voiceplane/domain';

export interface StartOptions {
  /** Print a fresh API key for the demo account. */
  readonly newDemoKey: boolean;
  readonly help: boolean;
}

export const START_USAGE = [
  'usage: npm start [-- --new-demo-key]',
  '  --new-demo-key  also print a fresh API key for the demo account (its other keys keep working)',
  '  --help          print this and exit',
].join('\n');

/** The command line of `npm start`; anything unknown is refused, so a typo never starts a server silently. */
export function parseStartOptions(args: readonly string[]): Result<StartOptions, string> {
  let newDemoKey = false;
  let help = false;
  for (const arg of args) {
    if (arg === '--new-demo-key') newDemoKey = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else return { ok: false, error: `unknown option "${arg}"` };
  }
  return { ok: true, value: { newDemoKey, help } };
}
