import { Passage } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { InvocationOwner, KnowledgeSearchDetail, ToolInvocationLog } from '../tools';
import { KnowledgeRetrieval } from './ports';

/** Passages handed to the model per search: enough to answer, few enough to keep a voice turn fast. */
export const PASSAGES_PER_SEARCH = 4;

export interface KnowledgeQuestion {
  readonly userId: number;
  readonly knowledgeBaseId: number;
  readonly question: string;
  readonly limit: number;
  readonly mode: KnowledgeSearchDetail['mode'];
  /** The call or conversation the answer belongs to; null: the search is not logged (an answer nobody will read back). */
  readonly owner: InvocationOwner | null;
}

/**
 * A knowledge-base search made for an answer: the retrieval, then a log entry on the call or
 * conversation naming the passages (document, place, rank) so a user can see why the assistant
 * said what it said. The entry is written in the background; the answer does not wait for it.
 */
export class KnowledgeLookup {
  constructor(
    private readonly retrieval: KnowledgeRetrieval,
    private readonly log: ToolInvocationLog,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async search(q: KnowledgeQuestion): Promise<Passage[]> {
    const at = this.clock.now();
    const passages = await this.retrieval.search(q.userId, q.knowledgeBaseId, q.question, q.limit);
    if (q.owner !== null) {
      this.log.recordSearch({
        id: this.ids.token('tcl_', 22),
        owner: q.owner,
        userId: q.userId,
        search: {
          knowledgeBaseId: q.knowledgeBaseId,
          mode: q.mode,
          query: q.question,
          passages: passages.map((p, i) => ({
            documentId: p.documentId,
            documentName: p.documentName,
            position: p.position,
            rank: i + 1,
            score: p.score,
          })),
        },
        durationMs: Math.max(0, this.clock.now().getTime() - at.getTime()),
        at,
      });
    }
    return passages;
  }
}
