import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', '..', 'apps', 'worker', 'dist', 'main.js');

/** `apps/worker` as its own process, the way production runs it, so it can be killed for real. */
export class WorkerProcess {
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly output: string[] = [];

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (chunk: Buffer) => this.output.push(chunk.toString('utf8')));
  }

  /** Starts the compiled worker (build first: `npx tsc -b`) and waits until it reports it has started. */
  static async start(env: Record<string, string>, timeoutMs = 20_000): Promise<WorkerProcess> {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build with \`npx tsc -b\` first`);
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    const deadline = Date.now() + timeoutMs;
    while (!worker.output.join('').includes('"msg":"worker started"')) {
      const exited = await Promise.race([
        worker.exited.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 50)),
      ]);
      if (exited) throw new Error(`worker exited during start:\n${worker.output.join('')}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`worker did not start within ${timeoutMs} ms:\n${worker.output.join('')}`);
      }
    }
    return worker;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** SIGKILL: no shutdown code runs; leases, unacked messages and open transactions are left behind. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, and the exit code of the graceful shutdown. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    const { code } = await this.exited;
    return code;
  }

  /** Log lines at warn level or above, except the start-up warning every test worker has (ALLOW_PRIVATE_TARGETS). */
  problems(): string[] {
    return this.output
      .join('')
      .split('\n')
      .filter((line) => /"level":(40|50|60)/.test(line) && !line.includes('ALLOW_PRIVATE_TARGETS'));
  }
}
