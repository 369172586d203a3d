/** Handler error answers of the knowledge-base operations, recorded from knowledge-bases.int.spec.ts. */
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
const KB_404 = { error: 'Knowledgebase not found.' };
const DOC_404 = { error: 'Document not found.' };

export const KNOWLEDGE_BASE_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'POST /api/user/knowledgebases': {
    422: [
      invalid({ name: ['The name field is required.'] }),
      invalid({ name: ['Your plan allows at most 10 knowledge bases.'] }),
    ],
  },
  'PUT /api/user/knowledgebases/{id}': {
    404: [KB_404],
    422: [invalid({ name: ['The name must be at least 1 characters.'] })],
  },
  'DELETE /api/user/knowledgebases/{id}': { 404: [KB_404] },
  'GET /api/user/knowledgebases/{id}/documents': { 404: [KB_404] },
  'POST /api/user/knowledgebases/{id}/documents': {
    404: [KB_404],
    422: [
      invalid({ type: ['The selected type is invalid.'] }),
      invalid({ 'links.0.link': ['The link must be a valid http or https URL.'] }),
      invalid({ file: ['The file must be a PDF, DOCX, TXT, Markdown or HTML file.'] }),
      invalid({ name: ['Your plan allows at most 200 documents across your knowledge bases.'] }),
    ],
  },
  'GET /api/user/knowledgebases/{id}/documents/{document_id}': { 404: [DOC_404] },
  'PUT /api/user/knowledgebases/{id}/documents/{document_id}': { 404: [DOC_404] },
  'DELETE /api/user/knowledgebases/{id}/documents/{document_id}': { 404: [DOC_404] },
};
