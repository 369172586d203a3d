import { Assistant, buildRuntimeConfig, CallChannel, CallDirection, CallerLine, RuntimeConfig } from '@voiceplane/domain';
import { CatalogRepository } from '../assistants/ports';
import { ToolRepository } from '../tools/ports';

export interface CallStart {
  readonly direction: CallDirection;
  readonly channel: CallChannel;
  readonly customerPhone: string;
  readonly line: CallerLine | null;
  readonly assistant: Assistant;
  readonly variables: Readonly<Record<string, string>>;
}

/** The runtime configuration a call starts with: the assistant as it is now, its tools and the line. */
export class CallConfigurations {
  constructor(
    private readonly tools: ToolRepository,
    private readonly catalog: CatalogRepository,
  ) {}

  async forStart(start: CallStart): Promise<RuntimeConfig> {
    const { assistant } = start;
    const tools = assistant.toolIds.length > 0 ? await this.tools.listByIds(assistant.userId, assistant.toolIds) : [];
    const catalog = await this.catalog.catalog();
    return buildRuntimeConfig({
      direction: start.direction,
      channel: start.channel,
      customerPhone: start.customerPhone,
      line: start.line,
      assistantId: assistant.id,
      assistant,
      languageCode: catalog.languages.find((l) => l.id === assistant.languageId)?.iso_2 ?? null,
      secondaryLanguageCodes: assistant.secondaryLanguageIds.flatMap((id) => catalog.languages.filter((l) => l.id === id).map((l) => l.iso_2)),
      variables: start.variables,
      tools: tools.map((t) => ({ id: t.id, name: t.name, description: t.description, schema: t.schema })),
    });
  }
}
