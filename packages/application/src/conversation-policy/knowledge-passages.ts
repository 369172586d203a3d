import { Passage } from '@voiceplane/domain';
import { ConversationSetup } from './instructions';
import { ChatMessage } from './ports';
import { ToolFunction } from './tool-functions';

export const SEARCH_KNOWLEDGE_BASE = 'search_knowledge_base';
export { PASSAGES_PER_SEARCH } from '../knowledge-bases';

export const SEARCH_KNOWLEDGE_BASE_FUNCTION: ToolFunction = {
  name: SEARCH_KNOWLEDGE_BASE,
  description:
    'Search the knowledge base of this business (documents, FAQ, prices, website) for passages that answer a question. Use it before answering questions about the business.',
  parameters: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'The question or keywords to search for, in the language of the documents',
      },
    },
    required: ['query'],
  },
};

/** The assistant's knowledge base and how it reads it; null when it has none. */
export function knowledgeOf(
  setup: ConversationSetup,
): { readonly knowledgeBaseId: number; readonly mode: 'prompt' | 'function_call' } | null {
  const id = setup.assistant.knowledgebase_id;
  if (id === null || id === undefined) return null;
  // Multimodal assistants take the function only (their instructions are fixed for the session).
  const mode =
    setup.assistant.knowledgebase_mode === 'prompt' && setup.assistant.mode === 'pipeline' ? 'prompt' : 'function_call';
  return { knowledgeBaseId: id, mode };
}

/** The customer's newest line: what `prompt` mode looks up. */
export function latestCustomerLine(history: readonly ChatMessage[]): string | null {
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const m = history[i];
    if (m.role === 'user' && m.content.trim() !== '') return m.content;
  }
  return null;
}

/** The instructions' closing section in `prompt` mode. */
export function passagesSection(passages: readonly Passage[]): string {
  if (passages.length === 0) return '';
  const body = passages.map((p, i) => `[${i + 1}] (${p.documentName}) ${p.content}`).join('\n\n');
  return `\n\n# Knowledge base\nAnswer from these passages of the business's documents when they are relevant; do not invent facts they do not state.\n\n${body}`;
}

/** What the model reads back from the function, and what the tool log keeps. */
export function passagesResult(passages: readonly Passage[]): string {
  return JSON.stringify({ passages: passages.map((p) => ({ document: p.documentName, content: p.content })) });
}
