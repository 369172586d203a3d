import { Assistant } from '@voiceplane/domain';
import { CatalogRepository } from '../assistants';

/** The model name the reply generator is asked for: the assistant's LLM from the catalogue, else `default`. */
export async function assistantModelName(
  catalog: CatalogRepository,
  assistant: Pick<Assistant, 'llmModelId'>,
): Promise<string> {
  return (await catalog.catalog()).models.find((m) => m.id === assistant.llmModelId)?.name ?? 'default';
}
