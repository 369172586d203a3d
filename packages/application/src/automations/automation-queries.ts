import { JsonObject } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { Automation, AutomationFilters, AutomationRepository, AutomationVersion } from './ports';
import { currentVersion } from './update-automation';
import { webhookUrlOf } from './version-publisher';

/** The automation record: the automation with what its versions say. */
export interface AutomationView {
  readonly automation: Automation;
  readonly webhookUrl: string | null;
  /** Of the live version, else of the newest draft. */
  readonly params: JsonObject;
  readonly liveVersionNumber: number | null;
  readonly versionsCount: number;
}

/** The automations list and get, and the versions list. */
export class AutomationQueries {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly publicBaseUrl: string,
  ) {}

  async list(userId: number, filters: AutomationFilters, page: PageRequest): Promise<Page<AutomationView>> {
    const found = await this.automations.list(userId, filters, page);
    return { items: await Promise.all(found.items.map((a) => this.view(a))), total: found.total };
  }

  async get(userId: number, id: string): Promise<AutomationView | null> {
    const found = await this.automations.find(userId, id);
    return found === null ? null : this.view(found);
  }

  /** Newest first; null when the automation is not the user's. */
  async versions(
    userId: number,
    id: string,
  ): Promise<{ automation: Automation; versions: AutomationVersion[] } | null> {
    const found = await this.automations.find(userId, id);
    return found === null ? null : { automation: found, versions: await this.automations.listVersions(found.id) };
  }

  async view(automation: Automation): Promise<AutomationView> {
    const versions = await this.automations.listVersions(automation.id);
    const live = versions.find((v) => v.id === automation.liveVersionId) ?? null;
    return {
      automation,
      webhookUrl: webhookUrlOf(this.publicBaseUrl, automation),
      params: currentVersion(versions, automation.liveVersionId)?.params ?? {},
      liveVersionNumber: live?.number ?? null,
      versionsCount: versions.length,
    };
  }
}
