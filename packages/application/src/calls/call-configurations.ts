import {
  Assistant,
  buildRuntimeConfig,
  CallChannel,
  CallDirection,
  CallerLine,
  ReferenceCatalog,
  RuntimeConfig,
  runtimeSpeech,
  TransferAssistant,
} from '@voiceplane/domain';
import { AssistantRepository, CatalogRepository } from '../assistants';
import { ToolRepository } from '../tools';

export interface CallStart {
  readonly direction: CallDirection;
  readonly channel: CallChannel;
  readonly customerPhone: string;
  readonly line: CallerLine | null;
  readonly assistant: Assistant;
  readonly variables: Readonly<Record<string, string>>;
}

/** Assistants a call can be handed to, through chains of `assistant_transfer` tools included; a bound on what one config carries. */
export const MAX_TRANSFER_ASSISTANTS = 10;

/**
 * The runtime configuration a call starts with: the assistant as it is now, its tools and the line,
 * the catalogue entries the voice agent needs, and every assistant its `assistant_transfer` tools
 * can hand the call to (their configs are fixed at the start too, like the first assistant's).
 */
export class CallConfigurations {
  constructor(
    private readonly tools: ToolRepository,
    private readonly catalog: CatalogRepository,
    /** Where hand-over targets are read; without it (set-ups that never hand calls over) a call carries none. */
    private readonly assistants: AssistantRepository | null = null,
  ) {}

  async forStart(start: CallStart): Promise<RuntimeConfig> {
    const catalog = await this.catalog.catalog();
    const config = await this.configOf(start, start.assistant, catalog);
    const targets = this.assistants ? await this.transferTargets(start, this.assistants, catalog) : [];
    return targets.length > 0 ? { ...config, transfer_assistants: targets } : config;
  }

  private async configOf(start: CallStart, assistant: Assistant, catalog: ReferenceCatalog): Promise<RuntimeConfig> {
    const tools = assistant.toolIds.length > 0 ? await this.tools.listByIds(assistant.userId, assistant.toolIds) : [];
    const config = buildRuntimeConfig({
      direction: start.direction,
      channel: start.channel,
      customerPhone: start.customerPhone,
      line: start.line,
      assistantId: assistant.id,
      assistant,
      languageCode: catalog.languages.find((l) => l.id === assistant.languageId)?.iso_2 ?? null,
      secondaryLanguageCodes: assistant.secondaryLanguageIds.flatMap((id) =>
        catalog.languages.filter((l) => l.id === id).map((l) => l.iso_2),
      ),
      variables: start.variables,
      tools: tools.map((t) => ({ id: t.id, name: t.name, description: t.description, schema: t.schema })),
    });
    return { ...config, speech: runtimeSpeech(catalog, assistant) };
  }

  /** Breadth first from the call's assistant; a deleted target is left out (the agent then says it cannot transfer). */
  private async transferTargets(
    start: CallStart,
    assistants: AssistantRepository,
    catalog: ReferenceCatalog,
  ): Promise<TransferAssistant[]> {
    const targetsOf = (a: Assistant) =>
      a.tools.flatMap((t) => (t.type === 'assistant_transfer' ? [t.data.assistant_id] : []));
    const seen = new Set<number>([start.assistant.id]);
    const queue = targetsOf(start.assistant);
    const found: TransferAssistant[] = [];
    while (queue.length > 0 && found.length < MAX_TRANSFER_ASSISTANTS) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const target = await assistants.findOwned(start.assistant.userId, id);
      if (target === null) continue;
      const { assistant, variables, tools, builtin_tools, speech } = await this.configOf(start, target, catalog);
      found.push({ assistant, variables, tools, builtin_tools, speech: speech! });
      queue.push(...targetsOf(target));
    }
    return found;
  }
}
