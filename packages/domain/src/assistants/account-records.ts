/** Account records an assistant may point at, shown in the reference lists. */

export const KNOWLEDGE_BASE_STATUSES = ['empty', 'processing', 'active', 'failed'] as const;
export type KnowledgeBaseStatus = (typeof KNOWLEDGE_BASE_STATUSES)[number];

export interface KnowledgeBase {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly description: string | null;
  readonly status: KnowledgeBaseStatus;
  readonly documentsCount: number;
  readonly assistantsCount: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface EventType {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly durationMinutes: number;
  readonly createdAt: Date;
}
