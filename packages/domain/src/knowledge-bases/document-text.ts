import { Plan } from '../account/plan';
import { utf8Length } from '../automations/data-tables';
import { Result, err, ok } from '../common/result';
import { chunkText } from './chunking';
import { KnowledgeUsage } from './limits';

/**
 * What a document's text may be once read. The upload's size says little about it (a 60 KB DOCX
 * can unpack to 40 MB of text), so these are enforced on what reading produces.
 */
export const DOCUMENT_TEXT_MAX_BYTES = 10 * 1024 * 1024;
/** A packed format (DOCX) is refused once its parts unpack to more than this, before its text is built. */
export const DOCUMENT_UNPACKED_MAX_BYTES = 32 * 1024 * 1024;
/** Passages of one document; text within the byte cap makes fewer than this. */
export const DOCUMENT_PASSAGES_MAX = 15_000;
/** Reading and cutting one document's text: shorter than the 25 s a stopping process waits for work in hand, and than a job's lease. */
export const DOCUMENT_READ_DEADLINE_MS = 20_000;
/** Claims of one document's job before it is failed without another try (a process that died reading it). */
export const DOCUMENT_PROCESSING_ATTEMPTS_MAX = 5;

export type DocumentTextRefusal =
  | { readonly code: 'no_text' }
  | { readonly code: 'text_too_large' }
  | { readonly code: 'unpacked_too_large' }
  | { readonly code: 'too_many_passages' }
  | { readonly code: 'took_too_long' }
  | { readonly code: 'out_of_memory' }
  | { readonly code: 'gave_up' }
  | { readonly code: 'plan_bytes'; readonly max: number };

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** The reason a user reads on the failed document: what happened and what to do. */
export function documentFailureReason(refusal: DocumentTextRefusal): string {
  switch (refusal.code) {
    case 'no_text':
      return 'No text could be read from the document.';
    case 'text_too_large':
      return `The document's text is larger than ${megabytes(DOCUMENT_TEXT_MAX_BYTES)}; split it into smaller documents.`;
    case 'unpacked_too_large':
      return `The file unpacks to more than ${megabytes(DOCUMENT_UNPACKED_MAX_BYTES)}; split it into smaller files.`;
    case 'too_many_passages':
      return `The document's text makes more than ${DOCUMENT_PASSAGES_MAX.toLocaleString('en')} passages; split it into smaller documents.`;
    case 'took_too_long':
      return `Reading the document took longer than ${DOCUMENT_READ_DEADLINE_MS / 1000} s; split it into smaller files.`;
    case 'out_of_memory':
      return 'Reading the document needed more memory than a document may use; split it into smaller files.';
    case 'gave_up':
      return 'The document could not be processed.';
    case 'plan_bytes':
      return `The document's text does not fit in the plan's ${megabytes(refusal.max)} for knowledge bases.`;
  }
}

// NUL, which PostgreSQL never stores in text, the other control characters except tab, line feed,
// form feed and carriage return, and halves of surrogate pairs (not UTF-8).
// eslint-disable-next-line no-control-regex
const UNSTORABLE =
  /[\u0000-\u0008\u000b\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text without characters a database cannot store as UTF-8 text. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '');
}

/** The passages of a read text and the bytes it counts, or why the document cannot keep it. */
export function documentPassages(text: string): Result<{ passages: string[]; sizeBytes: number }, DocumentTextRefusal> {
  const clean = storableText(text);
  const sizeBytes = utf8Length(clean);
  if (sizeBytes > DOCUMENT_TEXT_MAX_BYTES) return err({ code: 'text_too_large' });
  const passages = chunkText(clean);
  if (passages.length === 0) return err({ code: 'no_text' });
  if (passages.length > DOCUMENT_PASSAGES_MAX) return err({ code: 'too_many_passages' });
  return ok({ passages, sizeBytes });
}

/**
 * Whether the account can keep a document whose text turned out `finalBytes` long, given what it
 * holds now (`usage`, in which the document still counts `countedBytes`, what its request was
 * charged).
 */
export function canKeepDocument(
  plan: Plan,
  usage: KnowledgeUsage,
  countedBytes: number,
  finalBytes: number,
): DocumentTextRefusal | null {
  if (finalBytes <= countedBytes) return null;
  return usage.bytes - countedBytes + finalBytes > plan.max_knowledge_base_bytes
    ? { code: 'plan_bytes', max: plan.max_knowledge_base_bytes }
    : null;
}
