import {
  DOCUMENT_FILE_MAX_BYTES,
  DOCUMENT_TEXT_MAX_CHARS,
  DocumentSource,
  documentTypeOf,
  FieldErrors,
  fileKindOf,
  KNOWLEDGE_BASE_DESCRIPTION_MAX,
  KNOWLEDGE_BASE_NAME_MAX,
  WEBSITE_LINKS_MAX,
} from '@voiceplane/domain';
import { NewDocument } from '@voiceplane/application';
import { Int, Str, validateDto } from '../../validation';
import { refuse, validationAnswer } from '../../pipeline/answers';
import type { UploadedFile } from '../../pipeline/multipart';

export class CreateKnowledgeBaseBody {
  @Str({ required: true, min: 1, max: KNOWLEDGE_BASE_NAME_MAX }) name!: string;
  @Str({ max: KNOWLEDGE_BASE_DESCRIPTION_MAX, nullable: true }) description?: string | null;
}

export class UpdateKnowledgeBaseBody {
  @Str({ min: 1, max: KNOWLEDGE_BASE_NAME_MAX }) name?: string;
  @Str({ max: KNOWLEDGE_BASE_DESCRIPTION_MAX, nullable: true, description: 'null clears it' }) description?:
    | string
    | null;
}

export class CreateDocumentBody {
  @Str({ required: true, min: 1, max: KNOWLEDGE_BASE_NAME_MAX }) name!: string;
  @Str({
    required: true,
    max: 16,
    description: "`text`, `website` or `file`; the clients' `url`, `links`, `pdf`, `txt`, `docx` are taken too",
  })
  type!: string;
  @Str({ max: KNOWLEDGE_BASE_DESCRIPTION_MAX, nullable: true }) description?: string | null;
  @Str({ max: DOCUMENT_TEXT_MAX_CHARS, description: 'The text of a `text` document' }) content?: string;
  @Str({ max: 2048, description: 'Start page of a `website` document' }) url?: string;
  @Int({ min: 0, max: WEBSITE_LINKS_MAX, description: 'Same-site pages read from `url` besides it (default 0)' })
  relative_links_limit?: number;
  @Str({ pattern: /^[a-zA-Z]{2}$/, description: 'ISO 639-1 language of the text, for search (default en)' })
  language?: string;
}

export const UpdateDocumentBody = UpdateKnowledgeBaseBody;

const isWebUrl = (raw: string) => {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** `links` as the MCP server sends it (`[{link}]`) or as the OpenClaw plugin does (`["…"]`). */
function linksOf(raw: unknown, errors: FieldErrors): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.links = ['The links must be an array.'];
    return [];
  }
  if (raw.length > WEBSITE_LINKS_MAX) errors.links = [`The links may not have more than ${WEBSITE_LINKS_MAX} items.`];
  const links: string[] = [];
  raw.forEach((item, i) => {
    const link =
      typeof item === 'string'
        ? item
        : typeof item === 'object' && item !== null
          ? (item as { link?: unknown }).link
          : undefined;
    if (typeof link !== 'string' || !isWebUrl(link.trim()))
      errors[`links.${i}.link`] = ['The link must be a valid http or https URL.'];
    else links.push(link.trim());
  });
  return links;
}

/** The document a create request describes, or the request ends with 422. */
export function documentFrom(input: unknown, upload: UploadedFile | undefined): NewDocument {
  const parsed = validateDto(CreateDocumentBody, input);
  if (!parsed.ok) refuse(validationAnswer(parsed.errors));
  const body = parsed.value;
  const errors: FieldErrors = {};
  const type = documentTypeOf(body.type);
  const links = linksOf((input as { links?: unknown }).links, errors);
  let source: DocumentSource | null = null;
  let file: Uint8Array | null = null;
  if (type === null) errors.type = ['The selected type is invalid.'];
  else if (type === 'text') {
    if (!body.content?.trim()) errors.content = ['The content field is required when type is text.'];
    else source = { type, content: body.content };
  } else if (type === 'website') {
    const url = body.url?.trim() || null;
    if (url !== null && !isWebUrl(url)) errors.url = ['The url must be a valid http or https URL.'];
    if (url === null && links.length === 0 && !Object.keys(errors).some((k) => k.startsWith('links')))
      errors.url = ['The url field is required when links is empty.'];
    source = {
      type,
      url,
      links: url === null ? links : [],
      relativeLinksLimit: url === null ? 0 : (body.relative_links_limit ?? 0),
    };
  } else if (!upload) errors.file = ['The file field is required when type is file (multipart/form-data).'];
  else {
    const kind = fileKindOf(upload.fileName, upload.contentType);
    if (kind === null) errors.file = ['The file must be a PDF, DOCX, TXT, Markdown or HTML file.'];
    else if (upload.bytes.length > DOCUMENT_FILE_MAX_BYTES)
      errors.file = [`The file may not be greater than ${DOCUMENT_FILE_MAX_BYTES / 1024} kilobytes.`];
    else if (upload.bytes.length === 0) errors.file = ['The file is empty.'];
    else {
      source = { type, fileName: upload.fileName.slice(0, 255), kind };
      file = upload.bytes;
    }
  }
  if (Object.keys(errors).length > 0 || source === null) refuse(validationAnswer(errors));
  const sizeBytes = source.type === 'text' ? Buffer.byteLength(source.content, 'utf8') : (file?.byteLength ?? 0);
  return {
    name: body.name,
    description: body.description ?? null,
    source,
    language: body.language?.toLowerCase() ?? 'en',
    sizeBytes,
    file,
  };
}
