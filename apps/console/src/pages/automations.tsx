import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, ApiError, ok } from '../api';
import { Failure, Field, Loading, when } from '../ui';

interface Automation {
  id: string;
  name: string;
  status: string;
  template_key: string | null;
  binding?: { assistant_id: number | null } | null;
  params?: Record<string, unknown>;
  updated_at: string;
}
interface Run {
  id: string;
  status: string;
  steps?: unknown[];
}
interface Version {
  id: string;
  number: number;
  state: string;
  is_live: boolean;
  params: Record<string, unknown>;
  restored_from_version_id: string | null;
  created_at: string;
}
interface Template {
  key: string;
  name: string;
  description?: string;
  requires_assistant: boolean;
  params: { key: string; label: string; description?: string; required: boolean; example?: unknown }[];
}

/** Automations: apply a template; each flow's runs, versions, enable/disable and restore. */
export function AutomationsPage() {
  const templates = useQuery({
    queryKey: ['automation-templates'],
    queryFn: () => ok<{ data: Template[] }>(api.GET('/api/user/automate/templates')),
  });
  const flows = useQuery({
    queryKey: ['flows'],
    queryFn: () => ok<{ data: Automation[] }>(api.GET('/api/user/automate/flows')),
  });
  if (flows.isLoading) return <Loading what="automations" />;
  return (
    <section>
      <h1>Automations</h1>
      <Failure error={flows.error ?? templates.error} />
      <h2>Flows</h2>
      {(flows.data?.data ?? []).map((f) => (
        <details key={f.id} className="flow">
          <summary>
            {f.name}{' '}
            <small>
              <span className="status">{f.status}</span> · {f.template_key ?? 'custom'} · updated {when(f.updated_at)}
            </small>
          </summary>
          <AutomationDetail flow={f} />
        </details>
      ))}
      {flows.data?.data.length === 0 && <p>No automations yet: apply a template.</p>}
      <h2>Templates</h2>
      {(templates.data?.data ?? []).map((t) => (
        <details key={t.key}>
          <summary>
            <strong>{t.name}</strong> <small>{t.key}</small>
          </summary>
          {t.description && <p>{t.description}</p>}
          <ApplyTemplate template={t} />
        </details>
      ))}
    </section>
  );
}

/** The template's params as fields (their examples as placeholders); `params.url` messages beside `url`. */
function ApplyTemplate({ template }: { template: Template }) {
  const queries = useQueryClient();
  const [assistant, setAssistant] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const assistants = useQuery({
    queryKey: ['assistants'],
    enabled: template.requires_assistant,
    queryFn: () => ok<{ id: number; name: string }[]>(api.GET('/api/user/assistants')),
  });
  const apply = useMutation({
    mutationFn: () => {
      const params = Object.fromEntries(
        Object.entries(values)
          .filter(([, v]) => v !== '')
          .map(([k, v]) => {
            const example = template.params.find((p) => p.key === k)?.example;
            // A param whose example is not text (a number, a boolean) is sent as JSON when it parses.
            if (typeof example !== 'string') {
              try {
                return [k, JSON.parse(v)];
              } catch {
                return [k, v];
              }
            }
            return [k, v];
          }),
      );
      return ok<{ status: string; automation_id: string }>(
        api.POST('/api/user/automate/templates/{key}', {
          params: { path: { key: template.key } },
          body: { ...(assistant ? { assistant_id: Number(assistant) } : {}), params } as never,
        }),
      );
    },
    onSuccess: () => {
      setValues({});
      void queries.invalidateQueries({ queryKey: ['flows'] });
    },
  });
  const raw = apply.error instanceof ApiError ? apply.error.fields : {};
  const errors = Object.fromEntries(Object.entries(raw).map(([k, m]) => [k.replace(/^params\./, ''), m]));
  const shown = new Set(['assistant_id', ...template.params.map((p) => p.key)]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={`Apply ${template.name}`}>
      {template.requires_assistant && (
        <Field label="Assistant" name="assistant_id" errors={errors}>
          <select value={assistant} onChange={(e) => setAssistant(e.target.value)}>
            <option value="">—</option>
            {(assistants.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </Field>
      )}
      {template.params.map((p) => (
        <Field
          key={p.key}
          label={`${p.label}${p.required ? '' : ' (optional)'}`}
          name={p.key}
          errors={errors}
          hint={p.description}
        >
          <input
            value={values[p.key] ?? ''}
            placeholder={p.example === undefined ? undefined : String(p.example)}
            aria-invalid={errors[p.key] ? true : undefined}
            onChange={(e) => setValues({ ...values, [p.key]: e.target.value })}
          />
        </Field>
      ))}
      {!Object.keys(errors).some((k) => shown.has(k)) && <Failure error={apply.error} />}
      {apply.isSuccess && <p role="status">Applied: the automation is {apply.data.status.replace('_', ' ')}.</p>}
      <button type="submit" aria-busy={apply.isPending} disabled={apply.isPending}>
        Apply {template.name}
      </button>
    </form>
  );
}

function AutomationDetail({ flow }: { flow: Automation }) {
  const queries = useQueryClient();
  const path = { params: { path: { id: flow.id } } };
  const runs = useQuery({
    queryKey: ['flows', flow.id, 'runs'],
    queryFn: () => ok<{ runs: Run[] }>(api.GET('/api/user/automate/flows/{id}/runs', path)),
  });
  const versions = useQuery({
    queryKey: ['flows', flow.id, 'versions'],
    queryFn: () => ok<{ data: Version[] }>(api.GET('/api/user/automate/flows/{id}/versions', path)),
  });
  const changed = () => void queries.invalidateQueries({ queryKey: ['flows'] });
  const toggle = useMutation({
    mutationFn: (action: 'enable' | 'disable') =>
      action === 'enable'
        ? ok(api.POST('/api/user/automate/flows/{id}/enable', path))
        : ok(api.POST('/api/user/automate/flows/{id}/disable', path)),
    onSuccess: changed,
  });
  const restore = useMutation({
    mutationFn: () => ok<{ note: string }>(api.POST('/api/user/automate/flows/{id}/restore', path)),
    onSuccess: changed,
  });
  const enabled = flow.status === 'enabled';
  const list = versions.data?.data ?? [];
  return (
    <>
      <div className="toolbar">
        <button
          type="button"
          className="outline"
          onClick={() => toggle.mutate(enabled ? 'disable' : 'enable')}
          aria-busy={toggle.isPending}
        >
          {enabled ? 'Disable' : 'Enable'} {flow.name}
        </button>
        <button
          type="button"
          className="outline secondary"
          disabled={list.length < 2 || restore.isPending}
          onClick={() => restore.mutate()}
        >
          Restore the previous version
        </button>
      </div>
      <Failure error={runs.error ?? versions.error ?? toggle.error ?? restore.error} />
      {restore.isSuccess && <p role="status">{restore.data.note}</p>}
      <h3>Versions</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">State</th>
            <th scope="col">Params</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {list.map((v) => (
            <tr key={v.id}>
              <td>
                {v.number}
                {v.is_live ? ' (live)' : ''}
              </td>
              <td>
                {v.state}
                {v.restored_from_version_id ? ` · restored from ${v.restored_from_version_id}` : ''}
              </td>
              <td>
                <code>{JSON.stringify(v.params)}</code>
              </td>
              <td>{when(v.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Runs</h3>
      {(runs.data?.runs ?? []).map((r) => (
        <details key={r.id}>
          <summary>
            {r.id} — {r.status}
          </summary>
          <pre>{JSON.stringify(r.steps ?? r, null, 2)}</pre>
        </details>
      ))}
      {runs.data?.runs.length === 0 && <p>No runs yet.</p>}
    </>
  );
}
