import { parentPort } from 'node:worker_threads';
import { documentFailureReason, documentPassages, FileKind, Result, err } from '@voiceplane/domain';
import { fileText } from '../file-text';
import { ParsedPage, parsePage } from './page';

/** The body of a reading thread (see ReadingThread): one task at a time, answered by its id. */
export type ReadingTask =
  | { readonly kind: 'file'; readonly fileKind: FileKind; readonly bytes: Uint8Array }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'page'; readonly html: string; readonly pageUrl: string; readonly origin: string | null };

export type Passages = Result<{ passages: string[]; sizeBytes: number }, string>;

export interface ReadingRequest {
  readonly id: number;
  readonly task: ReadingTask;
}

export type ReadingAnswer =
  | { readonly id: number; readonly value: Passages | ParsedPage }
  | { readonly id: number; readonly error: string };

async function run(task: ReadingTask): Promise<Passages | ParsedPage> {
  switch (task.kind) {
    case 'page':
      return parsePage(task.html, task.pageUrl, task.origin);
    case 'text':
      return passagesOf(task.text);
    case 'file': {
      const text = await fileText(task.fileKind, task.bytes);
      return text.ok ? passagesOf(text.value) : text;
    }
  }
}

function passagesOf(text: string): Passages {
  const cut = documentPassages(text);
  return cut.ok ? cut : err(documentFailureReason(cut.error));
}

const port = parentPort!;
port.on('message', ({ id, task }: ReadingRequest) => {
  run(task).then(
    (value) => port.postMessage({ id, value } satisfies ReadingAnswer),
    (e: unknown) =>
      port.postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies ReadingAnswer),
  );
});
