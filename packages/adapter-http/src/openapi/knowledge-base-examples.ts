/** Success and error answers of the knowledge-base operations, recorded from knowledge-bases.int.spec.ts. */
const KB = {
  id: 4, name: 'Product FAQ', description: 'What customers ask', status: 'active', documents_count: 1, assistants_count: 0,
  created_at: '2026-11-26T19:40:12.118Z', updated_at: '2026-11-26T19:40:13.020Z',
};
const DOC = {
  id: 9, knowledgebase_id: 4, name: 'Site', description: null, type: 'website', url: 'https://www.example.com/', links: [], relative_links_limit: 5,
  file_name: null, language: 'en', status: 'ready', failure_reason: null, size_bytes: 18230, chunks_count: 17,
  created_at: '2026-11-26T19:40:12.530Z', updated_at: '2026-11-26T19:40:14.907Z',
};
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
const KB_404 = { error: 'Knowledgebase not found.' };
const DOC_404 = { error: 'Document not found.' };

export const KNOWLEDGE_BASE_SUCCESS_EXAMPLES: Readonly<Record<string, unknown>> = {
  'POST /api/user/knowledgebases': { data: { ...KB, status: 'empty', documents_count: 0 } },
  'PUT /api/user/knowledgebases/{id}': { data: KB },
  'DELETE /api/user/knowledgebases/{id}': { message: 'Knowledgebase deleted successfully' },
  'GET /api/user/knowledgebases/{id}/documents': { data: [DOC] },
  'POST /api/user/knowledgebases/{id}/documents': { data: { ...DOC, status: 'processing', size_bytes: 0, chunks_count: 0 } },
  'GET /api/user/knowledgebases/{id}/documents/{document_id}': { data: DOC },
  'PUT /api/user/knowledgebases/{id}/documents/{document_id}': { data: { ...DOC, name: 'Website' } },
  'DELETE /api/user/knowledgebases/{id}/documents/{document_id}': { message: 'Document deleted successfully' },
};

export const KNOWLEDGE_BASE_HANDLER_ERRORS: Readonly<Record<string, Readonly<Record<number, readonly object[]>>>> = {
  'POST /api/user/knowledgebases': { 422: [invalid({ name: ['The name field is required.'] }), invalid({ name: ['Your plan allows at most 10 knowledge bases.'] })] },
  'PUT /api/user/knowledgebases/{id}': { 404: [KB_404], 422: [invalid({ name: ['The name must be at least 1 characters.'] })] },
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
