import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  DOCUMENT_READ_DEADLINE_MS,
  documentFailureReason,
  DocumentTextRefusal,
  Result,
  err,
  ok,
} from '@voiceplane/domain';
import { ParsedPage } from './page';
import type { Passages, ReadingAnswer, ReadingRequest, ReadingTask } from './thread-body';

export interface ReadingThreadOptions {
  /** One task's time on the thread; past it the thread is ended and the task is `took_too_long`. */
  readonly deadlineMs: number;
  /** The thread's heap; a task needing more ends the thread and is `out_of_memory`. */
  readonly maxHeapMb: number;
  /** An idle thread is ended after this, giving its memory back; the next task starts another. */
  readonly idleMs: number;
}

export const DEFAULT_READING: ReadingThreadOptions = {
  deadlineMs: DOCUMENT_READ_DEADLINE_MS,
  maxHeapMb: 512,
  idleMs: 10_000,
};

/** How the thread itself gave out on a task. */
export type ThreadRefusal = Extract<DocumentTextRefusal, { code: 'took_too_long' | 'out_of_memory' }>;

// The compiled body, from dist (the product) and from src (Jest) alike: a thread runs plain Node.
const BODY = join(__dirname, '..', '..', 'dist', 'reading', 'thread-body.js');

interface Pending {
  readonly id: number;
  readonly task: ReadingTask;
  readonly resolve: (outcome: Result<Passages | ParsedPage, ThreadRefusal>) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Reads documents on a thread of their own, so work that grows with a document (unpacking,
 * parsing, cutting its text) never runs on the event loop that answers requests. Tasks run one at
 * a time, in order; each has a deadline and the thread a heap limit, and a task past either ends
 * the thread (which stops it mid-work, however it loops) and fails with the reason.
 */
export class ReadingThread {
  private worker: Worker | null = null;
  private readonly waiting: Pending[] = [];
  private current: { readonly pending: Pending; readonly deadline: NodeJS.Timeout } | null = null;
  private idle: NodeJS.Timeout | null = null;
  private lastId = 0;

  constructor(private readonly options: ReadingThreadOptions = DEFAULT_READING) {}

  /** The passages of an upload or a text, or why the document cannot have them. */
  async passages(task: Extract<ReadingTask, { kind: 'file' | 'text' }>): Promise<Passages> {
    const outcome = await this.run(task);
    return outcome.ok ? (outcome.value as Passages) : err(documentFailureReason(outcome.error));
  }

  /** A crawled page's text and links, or why it could not be parsed. */
  async page(html: string, pageUrl: string, origin: string | null): Promise<Result<ParsedPage, string>> {
    const outcome = await this.run({ kind: 'page', html, pageUrl, origin });
    return outcome.ok ? ok(outcome.value as ParsedPage) : err(documentFailureReason(outcome.error));
  }

  /** Tasks in hand or waiting. */
  backlog(): number {
    return this.waiting.length + (this.current ? 1 : 0);
  }

  /** Ends the thread; tasks in hand or waiting are rejected. */
  async close(): Promise<void> {
    const closed = new Error('the reading thread was closed');
    for (const pending of this.waiting.splice(0)) pending.reject(closed);
    this.settle({ error: closed });
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private run(task: ReadingTask): Promise<Result<Passages | ParsedPage, ThreadRefusal>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: ++this.lastId, task, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.current || this.waiting.length === 0) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const pending = this.waiting.shift()!;
    const worker = (this.worker ??= this.spawn());
    const deadline = setTimeout(() => this.end(worker, { code: 'took_too_long' }), this.options.deadlineMs);
    deadline.unref();
    this.current = { pending, deadline };
    worker.postMessage({ id: pending.id, task: pending.task } satisfies ReadingRequest);
  }

  private spawn(): Worker {
    const worker = new Worker(BODY, { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb } });
    // Never what keeps a process alive: the process ends it when it ends.
    worker.unref();
    worker.on('message', (answer: ReadingAnswer) => {
      if (this.worker !== worker || this.current?.pending.id !== answer.id) return;
      this.settle(
        'error' in answer ? { error: new Error(`reading thread: ${answer.error}`) } : { outcome: ok(answer.value) },
      );
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.settle(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { outcome: err({ code: 'out_of_memory' }) } : { error: e });
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.settle({ error: new Error(`the reading thread exited (${code})`) });
    });
    return worker;
  }

  /** Ends a thread that gave out on its task and answers the task with why. */
  private end(worker: Worker, refusal: ThreadRefusal): void {
    if (this.worker === worker) this.worker = null;
    void worker.terminate();
    this.settle({ outcome: err(refusal) });
  }

  private settle(result: { outcome: Result<Passages | ParsedPage, ThreadRefusal> } | { error: Error }): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    clearTimeout(current.deadline);
    if ('outcome' in result) current.pending.resolve(result.outcome);
    else current.pending.reject(result.error);
    if (this.waiting.length > 0) return this.next();
    this.idle = setTimeout(() => {
      const worker = this.worker;
      this.worker = null;
      void worker?.terminate();
    }, this.options.idleMs);
    this.idle.unref();
  }
}
