import { KnowledgeBaseRefusal, KnowledgeLimit } from '@voiceplane/domain';
import { CallKnowledgeRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';

export const KNOWLEDGE_BASE_NOT_FOUND: Answer = { status: 404, body: { error: 'Knowledgebase not found.' } };
export const DOCUMENT_NOT_FOUND: Answer = { status: 404, body: { error: 'Document not found.' } };

const LIMIT_MESSAGES: Readonly<Record<KnowledgeLimit, (max: number) => [string, string]>> = {
  knowledge_bases: (max) => ['name', `Your plan allows at most ${max} knowledge bases.`],
  documents: (max) => ['name', `Your plan allows at most ${max} documents across your knowledge bases.`],
  bytes: (max) => [
    'type',
    `Your plan allows at most ${Math.floor(max / (1024 * 1024))} MB of documents across your knowledge bases.`,
  ],
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

/** The `message` of each successful delete (creates and updates answer with the record alone). */
export const KNOWLEDGE_BASE_SUCCESS = {
  knowledgeBaseDeleted: 'Knowledgebase deleted successfully',
  documentDeleted: 'Document deleted successfully',
} as const;

/** The voice runtime's knowledge searches: the runtime family's `{message}` answers, as the tool gateway's. */
export const CALL_KNOWLEDGE_ANSWERS: AnswerTable<CallKnowledgeRefusal> = {
  call_not_found: { status: 404, body: { message: 'Call not found' } },
  call_ended: { status: 409, body: { message: 'Call already ended.' } },
  knowledge_base_not_found: { status: 404, body: { message: "The call's assistant has no such knowledge base." } },
};
