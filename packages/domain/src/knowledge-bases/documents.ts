/** What a knowledge base holds: documents, each turned into searchable passages by a worker. */

export const DOCUMENT_TYPES = ['text', 'website', 'file'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * Names the public clients send for a type: the OpenClaw plugin says `url` and `links` for a
 * website and the MCP server names file formats (`pdf`, `txt`, `docx`) — each means one of ours.
 */
export const DOCUMENT_TYPE_ALIASES: Readonly<Record<string, DocumentType>> = {
  text: 'text',
  website: 'website',
  url: 'website',
  links: 'website',
  file: 'file',
  pdf: 'file',
  txt: 'file',
  docx: 'file',
  markdown: 'file',
  md: 'file',
  html: 'file',
};

export function documentTypeOf(raw: string): DocumentType | null {
  return DOCUMENT_TYPE_ALIASES[raw.trim().toLowerCase()] ?? null;
}

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const FILE_KINDS = ['pdf', 'docx', 'txt', 'markdown', 'html'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

const KIND_BY_EXTENSION: Readonly<Record<string, FileKind>> = {
  pdf: 'pdf',
  docx: 'docx',
  txt: 'txt',
  text: 'txt',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
};
const KIND_BY_CONTENT_TYPE: Readonly<Record<string, FileKind>> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/plain': 'txt',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
};

/** The file's format by its name, else by its declared content type; null when we cannot read it. */
export function fileKindOf(fileName: string, contentType: string | null): FileKind | null {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension && KIND_BY_EXTENSION[extension]) return KIND_BY_EXTENSION[extension];
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return (type && KIND_BY_CONTENT_TYPE[type]) || null;
}

/** Where a document's text comes from. */
export type DocumentSource =
  | { readonly type: 'text'; readonly content: string }
  | {
      readonly type: 'website';
      readonly url: string | null;
      readonly links: readonly string[];
      readonly relativeLinksLimit: number;
    }
  | { readonly type: 'file'; readonly fileName: string; readonly kind: FileKind };

export interface KnowledgeBaseDocument {
  readonly id: number;
  readonly knowledgeBaseId: number;
  readonly userId: number;
  readonly name: string;
  readonly description: string | null;
  readonly source: DocumentSource;
  readonly language: string;
  readonly status: DocumentStatus;
  /** Why processing failed, in words a user can act on; null unless `failed`. */
  readonly failureReason: string | null;
  /** Bytes the document counts against the plan: the upload, the text, or the pages read. */
  readonly sizeBytes: number;
  readonly chunksCount: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** One passage found for a question, with where it came from. */
export interface Passage {
  readonly documentId: number;
  readonly documentName: string;
  readonly position: number;
  readonly content: string;
  readonly score: number;
}
