import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, ApiError, ok } from '../api';
import { Failure, Field, Loading } from '../ui';
import { FIELD_GROUPS, fromForm, label, toForm } from './assistant-fields';
import { ToolPicker } from './tools';
import { TryIt } from './try-it';

type Values = Record<string, string | boolean>;
const ALL = FIELD_GROUPS.flatMap((g) => g.fields);
const NEW_DEFAULTS: Record<string, unknown> = { name: '', type: 'outbound' };

/** Every field of an assistant, grouped; each shows the API's validation message beside it. */
export function AssistantEditorPage() {
  const { id } = useParams();
  const isNew = id === 'new';
  const navigate = useNavigate();
  const queries = useQueryClient();
  const stored = useQuery({
    queryKey: ['assistant', id],
    enabled: !isNew,
    queryFn: () =>
      ok<{ data: Record<string, unknown> }>(
        api.GET('/api/user/assistant/{id}', { params: { path: { id: String(id) } } }),
      ),
  });
  const [values, setValues] = useState<Values | null>(
    isNew
      ? Object.fromEntries(
          ALL.map((s) => [
            s.name,
            toForm(s.kind, NEW_DEFAULTS[s.name] ?? (s.kind === 'json' ? undefined : null)),
          ]).filter(([, v]) => v !== 'null'),
        )
      : null,
  );
  const [initial, setInitial] = useState<Values>({});
  useEffect(() => {
    if (!stored.data || values !== null) return;
    const loaded = Object.fromEntries(ALL.map((s) => [s.name, toForm(s.kind, stored.data.data[s.name])]));
    setValues(loaded);
    setInitial(loaded);
  }, [stored.data, values]);
  const save = useMutation({
    mutationFn: async (v: Values) => {
      // A new assistant sends what was filled in; an edit sends what changed.
      const body = Object.fromEntries(
        ALL.filter((s) => (isNew ? v[s.name] !== '' && v[s.name] !== undefined : v[s.name] !== initial[s.name])).map(
          (s) => [s.name, fromForm(s.kind, v[s.name])],
        ),
      );
      if (isNew) return ok<{ data: { id: number } }>(api.POST('/api/user/assistant', { body: body as never }));
      return ok<{ data: { id: number } }>(
        api.PUT('/api/user/assistant/{id}', { params: { path: { id: String(id) } }, body: body as never }),
      );
    },
    onSuccess: (answer) => {
      void queries.invalidateQueries({ queryKey: ['assistants'] });
      if (isNew) navigate(`/assistants/${answer.data.id}`);
      else {
        void queries.invalidateQueries({ queryKey: ['assistant', id] });
        setInitial(values ?? {});
      }
    },
  });
  const status = useMutation({
    mutationFn: (action: 'activate' | 'deactivate') =>
      ok(api.POST(`/api/user/assistant/{id}/${action}`, { params: { path: { id: String(id) } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['assistant', id] }),
  });
  if (stored.error) return <Failure error={stored.error} />;
  if (values === null) return <Loading what="the assistant" />;
  const errors = save.error instanceof ApiError ? save.error.fields : {};
  const set = (name: string, value: string | boolean) => setValues({ ...values, [name]: value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(values);
  };
  return (
    <section>
      <hgroup>
        <h1>{isNew ? 'New assistant' : String(stored.data?.data.name ?? '')}</h1>
        {!isNew && <p>Status: {String(stored.data?.data.status)}</p>}
      </hgroup>
      {!isNew && (
        <div className="toolbar">
          <button type="button" className="outline" onClick={() => status.mutate('activate')}>
            Activate
          </button>
          <button type="button" className="outline secondary" onClick={() => status.mutate('deactivate')}>
            Deactivate
          </button>
          <Failure error={status.error} />
        </div>
      )}
      <div className={isNew ? '' : 'split'}>
        <form onSubmit={submit} aria-label="Assistant">
          {FIELD_GROUPS.map((group) => (
            <details
              key={group.title}
              open={
                group.title === 'Basics' ||
                group.title === 'Prompt and variables' ||
                group.fields.some((s) => errors[s.name] || Object.keys(errors).some((k) => k.startsWith(`${s.name}.`)))
              }
            >
              <summary>{group.title}</summary>
              {group.fields
                .filter((s) => !(isNew && s.name === 'tools'))
                .map((s) => {
                  const nested = Object.entries(errors)
                    .filter(([k]) => k.startsWith(`${s.name}.`))
                    .flatMap(([k, m]) => m.map((x) => `${k}: ${x}`));
                  const fieldErrors =
                    nested.length > 0 ? { ...errors, [s.name]: [...(errors[s.name] ?? []), ...nested] } : errors;
                  const invalid = (fieldErrors[s.name] ?? []).length > 0;
                  const common = {
                    name: s.name,
                    'aria-invalid': invalid || undefined,
                    'aria-describedby': invalid ? `${s.name}-error` : undefined,
                  };
                  if (s.name === 'tool_ids') {
                    return (
                      <ToolPicker
                        key={s.name}
                        value={String(values[s.name] ?? '[]')}
                        onChange={(next) => set(s.name, next)}
                        errors={fieldErrors[s.name] ?? []}
                      />
                    );
                  }
                  if (s.kind === 'bool') {
                    return (
                      <Field key={s.name} label={label(s.name)} name={s.name} errors={fieldErrors}>
                        <input
                          type="checkbox"
                          role="switch"
                          {...common}
                          checked={values[s.name] === true}
                          onChange={(e) => set(s.name, e.target.checked)}
                        />
                      </Field>
                    );
                  }
                  return (
                    <Field key={s.name} label={label(s.name)} name={s.name} errors={fieldErrors}>
                      {s.kind === 'long' || s.kind === 'json' ? (
                        <textarea
                          {...common}
                          rows={s.kind === 'json' ? 4 : 5}
                          value={String(values[s.name] ?? '')}
                          onChange={(e) => set(s.name, e.target.value)}
                        />
                      ) : s.kind === 'choice' ? (
                        <select
                          {...common}
                          value={String(values[s.name] ?? '')}
                          onChange={(e) => set(s.name, e.target.value)}
                        >
                          <option value="">—</option>
                          {s.choices!.map((c) => (
                            <option key={c} value={c}>
                              {c}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <input
                          {...common}
                          type="text"
                          inputMode={s.kind === 'text' ? undefined : 'decimal'}
                          value={String(values[s.name] ?? '')}
                          onChange={(e) => set(s.name, e.target.value)}
                        />
                      )}
                    </Field>
                  );
                })}
            </details>
          ))}
          <Failure error={save.error} />
          {save.isSuccess && <p role="status">Saved.</p>}
          <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {isNew ? 'Create assistant' : 'Save changes'}
          </button>
        </form>
        {!isNew && <TryIt assistantId={Number(id)} />}
      </div>
    </section>
  );
}
