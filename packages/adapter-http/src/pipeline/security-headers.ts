import type { Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

type HeaderStep = readonly ['set', string, string] | readonly ['remove', string];

/**
 * helmet's headers, applied in one call. Without a Content-Security-Policy (whose directives may be
 * functions of the request) every header helmet sets is a constant of its options, so they are read once from helmet itself (a recording response, in
 * the order helmet writes them) and replayed per request: the same headers in the same order, without
 * helmet's dozen nested middleware calls on every request.
 */
export function securityHeaders(
  options: HelmetOptions & { readonly contentSecurityPolicy: false },
): (res: Response) => void {
  // A policy's directives may be functions of the request (nonces): not a constant to record.
  if (options.contentSecurityPolicy !== false)
    throw new Error('securityHeaders records constant headers only: turn the Content-Security-Policy off');
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a value that is not a constant string`);
      steps.push(['set', name, value]);
    },
    removeHeader: (name: string) => {
      steps.push(['remove', name]);
    },
  };
  let finished = false;
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // Recorded only when helmet ran to its end without waiting for anything per request.
  if (!finished) throw new Error('helmet did not finish synchronously: its headers cannot be recorded');
  return (res) => {
    for (const step of steps) {
      if (step[0] === 'set') res.setHeader(step[1], step[2]);
      else res.removeHeader(step[1]);
    }
  };
}
