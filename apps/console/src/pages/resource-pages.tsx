import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, ApiError, ok } from '../api';
import { Failure, Field, Loading, when } from '../ui';

interface KnowledgeBase {
  id: number;
  name: string;
  description: string | null;
  status?: string;
  documents_count?: number;
  created_at: string;
}

/** Knowledge bases: create, add a text document, see their status, delete. */
export function KnowledgeBasesPage() {
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const list = useQuery({
    queryKey: ['knowledge-bases'],
    queryFn: () => ok<{ data: KnowledgeBase[] }>(api.GET('/api/user/knowledgebases')),
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['knowledge-bases'] });
  const create = useMutation({
    mutationFn: () => ok(api.POST('/api/user/knowledgebases', { body: { name } as never })),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      ok(api.DELETE('/api/user/knowledgebases/{id}', { params: { path: { id: String(id) } } })),
    onSuccess: refresh,
  });
  const errors = create.error instanceof ApiError ? create.error.fields : {};
  return (
    <section>
      <h1>Knowledge bases</h1>
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
        aria-label="New knowledge base"
        className="inline"
      >
        <Field label="Name" name="name" errors={errors}>
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit">Create</button>
      </form>
      <Failure error={list.error ?? remove.error} />
      {list.isLoading ? (
        <Loading what="knowledge bases" />
      ) : (
        (list.data?.data ?? []).map((kb) => (
          <details key={kb.id}>
            <summary>
              {kb.name}{' '}
              <small>
                {kb.status ?? ''} · created {when(kb.created_at)}
              </small>
            </summary>
            <Documents kb={kb.id} />
            <button type="button" className="outline secondary" onClick={() => remove.mutate(kb.id)}>
              Delete {kb.name}
            </button>
          </details>
        ))
      )}
    </section>
  );
}

function Documents({ kb }: { kb: number }) {
  const queries = useQueryClient();
  const [doc, setDoc] = useState({ name: '', content: '' });
  const path = { params: { path: { id: String(kb) } } };
  const docs = useQuery({
    queryKey: ['knowledge-bases', kb, 'documents'],
    queryFn: () =>
      ok<{ data: { id: number; name: string; status: string; error?: string | null }[] }>(
        api.GET('/api/user/knowledgebases/{id}/documents', path),
      ),
  });
  const add = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/user/knowledgebases/{id}/documents', {
          ...path,
          body: { type: 'text', name: doc.name, content: doc.content } as never,
        }),
      ),
    onSuccess: () => {
      setDoc({ name: '', content: '' });
      void queries.invalidateQueries({ queryKey: ['knowledge-bases', kb] });
    },
  });
  const errors = add.error instanceof ApiError ? add.error.fields : {};
  return (
    <>
      <ul>
        {(docs.data?.data ?? []).map((d) => (
          <li key={d.id}>
            {d.name} — {d.status}
            {d.error ? ` (${d.error})` : ''}
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
        aria-label="Add a text document"
      >
        <Field label="Document name" name="name" errors={errors}>
          <input value={doc.name} onChange={(e) => setDoc({ ...doc, name: e.target.value })} />
        </Field>
        <Field label="Text" name="content" errors={errors}>
          <textarea rows={3} value={doc.content} onChange={(e) => setDoc({ ...doc, content: e.target.value })} />
        </Field>
        <button type="submit" className="outline">
          Add document
        </button>
      </form>
    </>
  );
}

/** Owned numbers and SIP trunks. */
export function NumbersPage() {
  const numbers = useQuery({
    queryKey: ['numbers'],
    queryFn: () =>
      ok<{ data: { id: number; phone_number: string; type?: string; inbound_assistant_id?: number | null }[] }>(
        api.GET('/api/user/phone-numbers'),
      ),
  });
  const trunks = useQuery({
    queryKey: ['trunks'],
    queryFn: () =>
      ok<{ data: { id: number; phone_number: string; nickname?: string | null; sip_address?: string }[] }>(
        api.GET('/api/user/phone-numbers/sip-trunks'),
      ),
  });
  return (
    <section>
      <h1>Numbers and SIP trunks</h1>
      <Failure error={numbers.error ?? trunks.error} />
      <h2>Phone numbers</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Kind</th>
            <th scope="col">Inbound assistant</th>
          </tr>
        </thead>
        <tbody>
          {(numbers.data?.data ?? []).map((n) => (
            <tr key={n.id}>
              <td>{n.phone_number}</td>
              <td>{n.type ?? '—'}</td>
              <td>{n.inbound_assistant_id ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>SIP trunks</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Nickname</th>
            <th scope="col">SIP address</th>
          </tr>
        </thead>
        <tbody>
          {(trunks.data?.data ?? []).map((t) => (
            <tr key={t.id}>
              <td>{t.phone_number}</td>
              <td>{t.nickname ?? '—'}</td>
              <td>{t.sip_address ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

interface Automation {
  id: string;
  name: string;
  status: string;
  template_key: string | null;
  assistant_id: number | null;
  updated_at: string;
}
interface Run {
  id: string;
  status: string;
  started_at?: string;
  created_at?: string;
  steps?: unknown[];
}

/** Automations: the templates, the automations, each automation's runs with their steps and its versions. */
export function AutomationsPage() {
  const templates = useQuery({
    queryKey: ['automation-templates'],
    queryFn: () =>
      ok<{ data: { key: string; name: string; description?: string }[] }>(api.GET('/api/user/automate/templates')),
  });
  const automations = useQuery({
    queryKey: ['flows'],
    queryFn: () => ok<{ data: Automation[] }>(api.GET('/api/user/automate/flows')),
  });
  if (automations.isLoading) return <Loading what="automations" />;
  return (
    <section>
      <h1>Automations</h1>
      <Failure error={automations.error ?? templates.error} />
      <h2>Automations</h2>
      {(automations.data?.data ?? []).map((f) => (
        <details key={f.id}>
          <summary>
            {f.name}{' '}
            <small>
              {f.status} · {f.template_key ?? 'custom'} · updated {when(f.updated_at)}
            </small>
          </summary>
          <AutomationRuns id={f.id} />
        </details>
      ))}
      {automations.data?.data.length === 0 && <p>No automations yet: apply a template.</p>}
      <h2>Templates</h2>
      <ul>
        {(templates.data?.data ?? []).map((t) => (
          <li key={t.key}>
            <strong>{t.name}</strong> <small>{t.key}</small>
            {t.description ? ` — ${t.description}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

function AutomationRuns({ id }: { id: string }) {
  const path = { params: { path: { id } } };
  const runs = useQuery({
    queryKey: ['flows', id, 'runs'],
    queryFn: () => ok<{ runs: Run[] }>(api.GET('/api/user/automate/flows/{id}/runs', path)),
  });
  const versions = useQuery({
    queryKey: ['flows', id, 'versions'],
    queryFn: () =>
      ok<{ data: { id: string; created_at: string }[] }>(api.GET('/api/user/automate/flows/{id}/versions', path)),
  });
  return (
    <>
      <Failure error={runs.error ?? versions.error} />
      <h3>Runs</h3>
      {(runs.data?.runs ?? []).map((r) => (
        <details key={r.id}>
          <summary>
            {r.id} — {r.status}
          </summary>
          <pre>{JSON.stringify(r.steps ?? r, null, 2)}</pre>
        </details>
      ))}
      <h3>Versions</h3>
      <ul>
        {(versions.data?.data ?? []).map((v) => (
          <li key={v.id}>
            {v.id} · {when(v.created_at)}
          </li>
        ))}
      </ul>
    </>
  );
}
