import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', '..', 'apps', 'api', 'dist', 'main.js');

/** `apps/api` (`npm start`) as its own process, so it can be killed for real. */
export class ApiProcess {
  private readonly exited: Promise<unknown>;

  private constructor(
    private readonly child: ChildProcess,
    readonly base: string,
    readonly output: string[],
  ) {
    this.exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }

  /** Starts the compiled api (build first: `npx tsc -b`) and waits until it listens. */
  static async start(env: Record<string, string>, timeoutMs = 30_000): Promise<ApiProcess> {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build with \`npx tsc -b\` first`);
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`api did not listen within ${timeoutMs} ms:\n${output.join('')}`)),
        timeoutMs,
      );
      child.stdout?.on('data', () => {
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.join(''));
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`api exited with ${code} before listening:\n${output.join('')}`));
      });
    });
    return new ApiProcess(child, base, output);
  }

  /** SIGKILL: no shutdown code runs; what was not committed is lost, what was is kept. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
