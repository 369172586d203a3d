import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError, ok } from '../api';
import { Failure, Field, Loading, when } from '../ui';

export interface Tool {
  id: number;
  name: string;
  description: string;
  type: 'http' | 'automation';
  endpoint: string | null;
  method: string | null;
  body_format: string | null;
  timeout: number;
  headers: { name: string; value: string }[];
  static_fields: { key: string; value: string }[];
  schema: { name: string; type: string; description: string; required: boolean }[];
  updated_at: string;
}

/** The account's tools (one page of 100: the plan allows far fewer). */
export function useTools() {
  return useQuery({
    queryKey: ['tools'],
    queryFn: () => ok<Tool[]>(api.GET('/api/user/tools', { params: { query: { per_page: 100 } as never } })),
  });
}

/** Mid-call tools: the HTTP endpoints an assistant may call during a call. */
export function ToolsPage() {
  const tools = useTools();
  return (
    <section>
      <h1>Mid-call tools</h1>
      <p>
        <Link to="/tools/new" role="button">
          New tool
        </Link>
      </p>
      <Failure error={tools.error} />
      {tools.isLoading ? (
        <Loading what="tools" />
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Request</th>
              <th scope="col">Type</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {(tools.data ?? []).map((t) => (
              <tr key={t.id}>
                <td>
                  <Link to={`/tools/${t.id}`}>{t.name}</Link>
                </td>
                <td>
                  <code>
                    {t.method ?? ''} {t.endpoint ?? '—'}
                  </code>
                </td>
                <td>{t.type}</td>
                <td>{when(t.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {tools.data?.length === 0 && <p>No tools yet.</p>}
    </section>
  );
}

type Form = Record<'name' | 'description' | 'endpoint' | 'method' | 'body_format' | 'timeout', string> &
  Record<'headers' | 'static_fields' | 'schema', string>;
const EMPTY: Form = {
  name: '',
  description: '',
  endpoint: '',
  method: 'POST',
  body_format: 'json',
  timeout: '10',
  headers: '[]',
  static_fields: '[]',
  schema: '[]',
};
const LISTS = ['headers', 'static_fields', 'schema'] as const;
const json = (v: unknown) => JSON.stringify(v, null, 2);
/** Text that is not JSON is sent as typed, so the API names the field. */
const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** One tool: its fields with the API's messages beside them, then render and test. */
export function ToolEditorPage() {
  const { id } = useParams();
  const isNew = id === 'new';
  const navigate = useNavigate();
  const queries = useQueryClient();
  const stored = useQuery({
    queryKey: ['tool', id],
    enabled: !isNew,
    queryFn: () => ok<Tool>(api.GET('/api/user/tools/{id}', { params: { path: { id: String(id) } } })),
  });
  const [form, setForm] = useState<Form | null>(isNew ? EMPTY : null);
  useEffect(() => {
    if (!stored.data || form !== null) return;
    const t = stored.data;
    setForm({
      name: t.name,
      description: t.description,
      endpoint: t.endpoint ?? '',
      method: t.method ?? 'POST',
      body_format: t.body_format ?? 'json',
      timeout: String(t.timeout),
      headers: json(t.headers),
      static_fields: json(t.static_fields),
      schema: json(t.schema),
    });
  }, [stored.data, form]);
  const save = useMutation({
    mutationFn: (f: Form) => {
      const body = {
        ...f,
        timeout: Number.isFinite(Number(f.timeout)) && f.timeout.trim() !== '' ? Number(f.timeout) : f.timeout,
        ...Object.fromEntries(LISTS.map((k) => [k, parsed(f[k])])),
      };
      if (isNew) return ok<{ data: Tool }>(api.POST('/api/user/tools', { body: body as never }));
      return ok<{ data: Tool }>(
        api.PUT('/api/user/tools/{id}', { params: { path: { id: String(id) } }, body: body as never }),
      );
    },
    onSuccess: (answer) => {
      void queries.invalidateQueries({ queryKey: ['tools'] });
      void queries.invalidateQueries({ queryKey: ['tool', String(answer.data.id)] });
      if (isNew) navigate(`/tools/${answer.data.id}`);
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/api/user/tools/{id}', { params: { path: { id: String(id) } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['tools'] });
      navigate('/tools');
    },
  });
  if (stored.error) return <Failure error={stored.error} />;
  if (form === null) return <Loading what="the tool" />;
  const raw = save.error instanceof ApiError ? save.error.fields : {};
  // Item messages (`schema.0.name`) are shown under their list.
  const errors: Record<string, string[]> = { ...raw };
  for (const [key, messages] of Object.entries(raw)) {
    const list = LISTS.find((l) => key.startsWith(`${l}.`));
    if (list) errors[list] = [...(errors[list] ?? []), ...messages.map((m) => `${key}: ${m}`)];
  }
  const input = (name: keyof Form) => ({
    value: form[name],
    'aria-invalid': errors[name] ? true : undefined,
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form);
  };
  return (
    <section>
      <h1>{isNew ? 'New tool' : (stored.data?.name ?? '')}</h1>
      <div className={isNew ? '' : 'split'}>
        <form onSubmit={submit} aria-label="Tool">
          <Field label="Name" name="name" errors={errors} hint="What the AI calls it: letters, digits, _ and -">
            <input {...input('name')} />
          </Field>
          <Field label="Description" name="description" errors={errors} hint="When the AI should use it">
            <textarea rows={2} {...input('description')} />
          </Field>
          <Field label="Endpoint" name="endpoint" errors={errors} hint="{param} and {{variable}} placeholders">
            <input {...input('endpoint')} placeholder="https://api.example.com/orders/{order_id}" />
          </Field>
          <div className="grid">
            <Field label="Method" name="method" errors={errors}>
              <select {...input('method')}>
                {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Field>
            <Field label="Body format" name="body_format" errors={errors}>
              <select {...input('body_format')}>
                <option value="json">json</option>
                <option value="form">form</option>
              </select>
            </Field>
            <Field label="Timeout (seconds)" name="timeout" errors={errors}>
              <input inputMode="numeric" {...input('timeout')} />
            </Field>
          </div>
          <Field
            label="Parameters (JSON)"
            name="schema"
            errors={errors}
            hint='[{"name":"order_id","type":"string","description":"…","required":true}]'
          >
            <textarea rows={5} {...input('schema')} />
          </Field>
          <Field label="Headers (JSON)" name="headers" errors={errors} hint='[{"name":"…","value":"…"}]'>
            <textarea rows={3} {...input('headers')} />
          </Field>
          <Field label="Static fields (JSON)" name="static_fields" errors={errors} hint='[{"key":"…","value":"…"}]'>
            <textarea rows={3} {...input('static_fields')} />
          </Field>
          {Object.keys(raw).length === 0 && <Failure error={save.error} />}
          {save.isSuccess && !isNew && <p role="status">Saved.</p>}
          <div className="toolbar">
            <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
              {isNew ? 'Create tool' : 'Save tool'}
            </button>
            {!isNew && (
              <button type="button" className="outline secondary" onClick={() => remove.mutate()}>
                Delete tool
              </button>
            )}
          </div>
          <Failure error={remove.error} />
        </form>
        {!isNew && <ToolPreview id={String(id)} />}
      </div>
    </section>
  );
}

/** Render shows the exact request without sending it; test sends one real request. */
function ToolPreview({ id }: { id: string }) {
  const [params, setParams] = useState('{}');
  const [variables, setVariables] = useState('{}');
  const [shown, setShown] = useState<{ title: string; data: unknown } | null>(null);
  const body = () => ({ params: parsed(params), variables: parsed(variables) });
  const run = useMutation({
    mutationFn: async (action: 'render' | 'test') => {
      const path = { params: { path: { id } }, body: body() as never };
      const answer =
        action === 'render'
          ? await ok<{ data: unknown }>(api.POST('/api/user/tools/{id}/render', path))
          : await ok<{ data: unknown }>(api.POST('/api/user/tools/{id}/test', path));
      return {
        title: action === 'render' ? 'The request it would send' : 'The test request and its answer',
        ...answer,
      };
    },
    onMutate: () => setShown(null),
    onSuccess: (answer) => setShown(answer),
  });
  const errors = run.error instanceof ApiError ? run.error.fields : {};
  return (
    <aside aria-label="Try the tool">
      <h2>Try it</h2>
      <Field label="Arguments (JSON)" name="params" errors={errors}>
        <textarea rows={3} value={params} onChange={(e) => setParams(e.target.value)} />
      </Field>
      <Field label="Variables (JSON)" name="variables" errors={errors}>
        <textarea rows={2} value={variables} onChange={(e) => setVariables(e.target.value)} />
      </Field>
      <div className="toolbar">
        <button type="button" className="outline" onClick={() => run.mutate('render')}>
          Render request
        </button>
        <button type="button" className="outline" onClick={() => run.mutate('test')} aria-busy={run.isPending}>
          Send a test request
        </button>
      </div>
      {Object.keys(errors).length === 0 && <Failure error={run.error} />}
      {shown && (
        <section aria-label={shown.title}>
          <h3>{shown.title}</h3>
          <pre>{json(shown.data)}</pre>
        </section>
      )}
    </aside>
  );
}

/**
 * The assistant editor's `tool_ids`: the account's tools to tick, by name. The value stays the JSON
 * list the editor sends; ids the list does not show (a tool of a later page) are kept as they are.
 */
export function ToolPicker({
  value,
  onChange,
  errors,
}: {
  value: string;
  onChange: (next: string) => void;
  errors: string[];
}) {
  const tools = useTools();
  const chosen = parsed(value);
  const ids = Array.isArray(chosen) ? chosen.filter((x): x is number => typeof x === 'number') : [];
  const toggle = (toolId: number, on: boolean) =>
    onChange(JSON.stringify(on ? [...ids, toolId] : ids.filter((x) => x !== toolId)));
  return (
    <fieldset aria-describedby={errors.length ? 'tool_ids-error' : undefined}>
      <legend>Mid-call tools</legend>
      <Failure error={tools.error} />
      {(tools.data ?? [])
        .filter((t) => t.type === 'http' || ids.includes(t.id))
        .map((t) => (
          <label key={t.id}>
            <input type="checkbox" checked={ids.includes(t.id)} onChange={(e) => toggle(t.id, e.target.checked)} />
            {t.name} <small>{t.description}</small>
          </label>
        ))}
      {tools.data?.length === 0 && <p>No tools yet.</p>}
      <small>
        <Link to="/tools/new">Create a tool</Link>
      </small>
      {errors.map((m) => (
        <small key={m} className="error" id="tool_ids-error">
          {m}
        </small>
      ))}
    </fieldset>
  );
}
