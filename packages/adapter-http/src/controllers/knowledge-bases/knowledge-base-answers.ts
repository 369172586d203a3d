import { KnowledgeBaseRefusal, KnowledgeLimit } from '@voiceplane/domain';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';

export const KNOWLEDGE_BASE_NOT_FOUND: Answer = { status: 404, body: { error: 'Knowledgebase not found.' } };
export const DOCUMENT_NOT_FOUND: Answer = { status: 404, body: { error: 'Document not found.' } };

const LIMIT_MESSAGES: Readonly<Record<KnowledgeLimit, (max: number) => [string, string]>> = {
  knowledge_bases: (max) => ['name', `Your plan allows at most ${max} knowledge bases.`],
  documents: (max) => ['name', `Your plan allows at most ${max} documents across your knowledge bases.`],
  bytes: (max) => ['type', `Your plan allows at most ${Math.floor(max / (1024 * 1024))} MB of documents across your knowledge bases.`],
};

/** Knowledge bases and their documents: the `{error}` family for what is missing, validation for the rest. */
export const KNOWLEDGE_BASE_ANSWERS: AnswerTable<KnowledgeBaseRefusal> = {
  not_found: KNOWLEDGE_BASE_NOT_FOUND,
  document_not_found: DOCUMENT_NOT_FOUND,
  limit_reached: ({ limit, max }) => {
    const [field, message] = LIMIT_MESSAGES[limit](max);
    return { status: 422, body: validationBody('standard', { [field]: [message] }) };
  },
};
