import { AutomationRun, AutomationTemplate, Connection, DataTable, runDurationMs, TableRow } from '@voiceplane/domain';
import { stepErrorText } from './automation-messages';
import { AppliedTemplate, Automation, AutomationVersion, AutomationView } from '@voiceplane/application';
import { iso, isoOrNull } from '../../presenters/format';

/** Automation, run, data table and connection records, fields in the documented order. */

export function presentTemplate(t: AutomationTemplate, sampleInput: unknown) {
  return {
    key: t.key,
    name: t.name,
    description: t.description,
    trigger:
      t.trigger.kind === 'trigger.webhook'
        ? { kind: t.trigger.kind, mode: t.trigger.mode }
        : { kind: t.trigger.kind, event: t.trigger.event },
    requires_assistant: t.requiresAssistant,
    side_effects: t.sideEffects,
    binding_type: t.bindingType,
    needs_connection: t.needsConnection,
    params: t.params.map((p) => ({
      key: p.key,
      label: p.label,
      description: p.description,
      required: p.required,
      example: p.example,
    })),
    steps: [...t.steps],
    sample_input: sampleInput,
  };
}

export function presentTable(t: DataTable) {
  return {
    id: t.id,
    name: t.name,
    columns: t.columns.map((c) => ({ name: c.name, type: c.type })),
    rows_count: t.rowsCount,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}

export function presentRow(r: TableRow) {
  return { id: r.id, values: r.values, created_at: iso(r.createdAt), updated_at: iso(r.updatedAt) };
}

/** The secret never leaves: there is no field for it. */
export function presentConnection(c: Connection) {
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    base_url: c.baseUrl,
    notes_path: c.notesPath,
    auth_type: c.authType,
    auth_header_name: c.authHeaderName,
    status: c.status,
    last_checked_at: isoOrNull(c.lastCheckedAt),
    last_error: c.lastError,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
  };
}

export function presentRunSteps(run: AutomationRun) {
  // `attempts`: the HTTP attempts of a step retried on the delivery schedule (unattended runs only).
  return run.steps.map((s) => ({
    name: s.name,
    status: s.status,
    classification: s.classification,
    error: stepErrorText(s.failure),
    ...(s.attempts ? { attempts: s.attempts } : {}),
  }));
}

export function presentRunSummary(run: AutomationRun, now: Date) {
  return { id: run.id, status: run.status, start_time: iso(run.startedAt), duration_ms: runDurationMs(run, now) };
}

export function presentRunDetail(run: AutomationRun, now: Date) {
  return {
    ...presentRunSummary(run, now),
    steps: presentRunSteps(run),
    version_id: run.versionId,
    is_test: run.isTest,
    trigger: run.trigger,
    resume_at: isoOrNull(run.resumeAt),
    retry_of_run_id: run.retryOfRunId,
  };
}

export function presentBinding(a: Automation) {
  return { type: a.bindingType, assistant_id: a.assistantId, bound: a.bound };
}

/** The automation record as the API shows it. */
export function presentAutomation(v: AutomationView) {
  const a = v.automation;
  return {
    id: a.id,
    name: a.name,
    template_key: a.templateKey,
    status: a.status,
    binding: presentBinding(a),
    webhook_url: v.webhookUrl,
    tool_id: a.toolId,
    params: v.params,
    live_version_id: a.liveVersionId,
    live_version_number: v.liveVersionNumber,
    versions_count: v.versionsCount,
    last_test: a.lastTest
      ? { run_id: a.lastTest.runId, run_status: a.lastTest.runStatus, tested_at: iso(a.lastTest.testedAt) }
      : null,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

export function presentVersion(v: AutomationVersion, liveVersionId: string | null) {
  return {
    id: v.id,
    number: v.number,
    state: v.state,
    is_live: v.id === liveVersionId,
    params: v.params,
    definition: v.definition,
    restored_from_version_id: v.restoredFromVersionId,
    test_run_id: v.testRunId,
    created_at: iso(v.createdAt),
    published_at: isoOrNull(v.publishedAt),
  };
}

/** The envelope of an apply and of an automation update. */
export function presentApplied(applied: AppliedTemplate) {
  const run = applied.run;
  return {
    automation_id: applied.automation.id,
    webhook_url: applied.webhookUrl,
    status: applied.status,
    test: run
      ? { run_id: run.id, run_status: run.status, steps: presentRunSteps(run) }
      : { run_id: null, run_status: null, steps: [] },
    response: applied.response,
    binding: presentBinding(applied.automation),
  };
}
