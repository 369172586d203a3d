/** What an account may do; operators change it through the admin API. */
export interface Plan {
  readonly name: string;
  readonly max_mid_call_tools: number;
  readonly api_rate_limit_per_minute: number;
  readonly chatapp_calling_enabled: boolean;
  readonly included_template_messages: number;
  /** Phone calls of the account not yet ended, at once (make_call). */
  readonly max_concurrent_calls: number;
  readonly max_knowledge_bases: number;
  /** Documents across all the account's knowledge bases. */
  readonly max_knowledge_base_documents: number;
  /** Bytes of documents across all the account's knowledge bases. */
  readonly max_knowledge_base_bytes: number;
  /** Campaigns the account may hold, whatever their status. */
  readonly max_campaigns: number;
}

export const DEFAULT_PLAN: Plan = {
  name: 'standard',
  max_mid_call_tools: 10,
  api_rate_limit_per_minute: 600,
  chatapp_calling_enabled: true,
  included_template_messages: 0,
  max_concurrent_calls: 10,
  max_knowledge_bases: 10,
  max_knowledge_base_documents: 200,
  max_knowledge_base_bytes: 100 * 1024 * 1024,
  max_campaigns: 100,
};

/** Plans stored before a field existed read with that field's default. */
export function completePlan(stored: Partial<Plan>): Plan {
  return withPlanChanges(DEFAULT_PLAN, stored);
}

export function withPlanChanges(plan: Plan, changes: Partial<Plan>): Plan {
  const next: Record<string, unknown> = { ...plan };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) next[key] = value;
  return next as unknown as Plan;
}
