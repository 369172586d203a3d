import { copy } from './copy';
import { TemplateKey } from '@voiceplane/domain';
import {
  Automation,
  AutomationChanges,
  AutomationFilters,
  AutomationRepository,
  AutomationVersion,
  NewVersion,
  Page,
  PageRequest,
} from '@voiceplane/application';

/** Automations and their versions in memory, with the semantics of the PostgreSQL repository (see the automation-runs contract). */
export class InMemoryAutomationRepository implements AutomationRepository {
  private readonly automations = new Map<string, Automation>();
  private readonly versions = new Map<string, AutomationVersion>();

  async create(automation: Automation, version: AutomationVersion): Promise<void> {
    if (this.automations.has(automation.id)) throw new Error(`duplicate automation ${automation.id}`);
    this.automations.set(automation.id, copy(automation));
    this.versions.set(version.id, copy(version));
  }

  async find(userId: number, id: string): Promise<Automation | null> {
    const found = this.automations.get(id);
    return found && found.userId === userId ? copy(found) : null;
  }

  async findById(id: string): Promise<Automation | null> {
    const found = this.automations.get(id);
    return found ? copy(found) : null;
  }

  async update(id: string, changes: AutomationChanges, at: Date): Promise<void> {
    const current = this.automations.get(id);
    if (current) this.automations.set(id, { ...current, ...copy(changes), updatedAt: at });
  }

  async findVersion(id: string): Promise<AutomationVersion | null> {
    const found = this.versions.get(id);
    return found ? copy(found) : null;
  }

  async publishVersion(id: string, testRunId: string | null, at: Date): Promise<void> {
    const current = this.versions.get(id);
    if (current) this.versions.set(id, { ...current, state: 'published', publishedAt: at, testRunId });
  }

  async listBoundToAssistant(assistantId: number): Promise<Automation[]> {
    return this.ordered().filter(
      (a) => a.assistantId === assistantId && a.bindingType === 'assistant_event' && a.status === 'enabled' && a.bound,
    );
  }

  async findConflict(
    userId: number,
    assistantId: number,
    templateKey: TemplateKey,
    exceptId?: string,
  ): Promise<Automation | null> {
    const bound = await this.listBoundToAssistant(assistantId);
    return bound.find((a) => a.userId === userId && a.templateKey === templateKey && a.id !== exceptId) ?? null;
  }

  async list(userId: number, filters: AutomationFilters, page: PageRequest): Promise<Page<Automation>> {
    const matching = this.ordered()
      .reverse()
      .filter(
        (a) =>
          a.userId === userId &&
          (filters.status === undefined || a.status === filters.status) &&
          (filters.templateKey === undefined || a.templateKey === filters.templateKey) &&
          (filters.assistantId === undefined || a.assistantId === filters.assistantId),
      );
    return { items: matching.slice((page.page - 1) * page.perPage, page.page * page.perPage), total: matching.length };
  }

  async listVersions(automationId: string): Promise<AutomationVersion[]> {
    return [...this.versions.values()]
      .filter((v) => v.automationId === automationId)
      .sort((a, b) => b.number - a.number)
      .map((v) => copy(v));
  }

  async addVersion(v: NewVersion): Promise<AutomationVersion> {
    const number = Math.max(0, ...(await this.listVersions(v.automationId)).map((x) => x.number)) + 1;
    const version: AutomationVersion = { ...copy(v), number, state: 'draft', testRunId: null, publishedAt: null };
    this.versions.set(version.id, version);
    return copy(version);
  }

  async delete(id: string): Promise<void> {
    this.automations.delete(id);
    for (const [key, v] of this.versions) if (v.automationId === id) this.versions.delete(key);
  }

  private ordered(): Automation[] {
    return [...this.automations.values()]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((a) => copy(a));
  }
}
