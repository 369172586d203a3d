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

interface KbDocument {
  id: number;
  name: string;
  type: string;
  url: string | null;
  file_name: string | null;
  status: string;
  failure_reason: string | null;
  chunks_count: number | null;
}

/** Knowledge bases: create, add documents (a file, a website, a text), follow their reading, delete. */
export function KnowledgeBasesPage() {
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const list = useQuery({
    queryKey: ['knowledge-bases'],
    queryFn: () => ok<{ data: KnowledgeBase[] }>(api.GET('/api/user/knowledgebases')),
    // A knowledge base's status follows its documents' reading.
    refetchInterval: (q) => (q.state.data?.data.some((kb) => kb.status === 'processing') ? 2_000 : false),
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

type Source = 'file' | 'website' | 'text';

function Documents({ kb }: { kb: number }) {
  const queries = useQueryClient();
  const path = { params: { path: { id: String(kb) } } };
  const docs = useQuery({
    queryKey: ['knowledge-bases', kb, 'documents'],
    queryFn: () => ok<{ data: KbDocument[] }>(api.GET('/api/user/knowledgebases/{id}/documents', path)),
    // A document is read by a worker: the list is asked again while one is still being read.
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'processing') ? 1_000 : false),
  });
  return (
    <>
      <Failure error={docs.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Source</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {(docs.data?.data ?? []).map((d) => (
            <tr key={d.id}>
              <td>{d.name}</td>
              <td>{d.type === 'website' ? d.url : d.type === 'file' ? d.file_name : 'text'}</td>
              <td aria-busy={d.status === 'processing' || undefined}>
                {d.status}
                {d.status === 'ready' && d.chunks_count !== null ? ` (${d.chunks_count} passages)` : ''}
                {d.failure_reason && <small className="error">{d.failure_reason}</small>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <AddDocument kb={kb} onAdded={() => void queries.invalidateQueries({ queryKey: ['knowledge-bases'] })} />
    </>
  );
}

function AddDocument({ kb, onAdded }: { kb: number; onAdded: () => void }) {
  const [source, setSource] = useState<Source>('file');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [content, setContent] = useState('');
  const [formKey, setFormKey] = useState(0);
  const add = useMutation({
    mutationFn: () => {
      const path = { params: { path: { id: String(kb) } } };
      if (source === 'file') {
        // A file goes as multipart/form-data; the browser sets the boundary.
        const form = new FormData();
        form.set('type', 'file');
        form.set('name', name || file?.name || '');
        if (file) form.set('file', file);
        return ok(api.POST('/api/user/knowledgebases/{id}/documents', { ...path, body: form as never }));
      }
      const body = source === 'website' ? { type: 'website', name, url } : { type: 'text', name, content };
      return ok(api.POST('/api/user/knowledgebases/{id}/documents', { ...path, body: body as never }));
    },
    onSuccess: () => {
      setName('');
      setUrl('');
      setContent('');
      setFile(null);
      setFormKey((k) => k + 1);
      onAdded();
    },
  });
  const errors = add.error instanceof ApiError ? add.error.fields : {};
  return (
    <form
      key={formKey}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
      aria-label="Add a document"
    >
      <fieldset role="group" aria-label="Source of the document">
        {(['file', 'website', 'text'] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={source === s ? '' : 'outline'}
            aria-pressed={source === s}
            onClick={() => setSource(s)}
          >
            {s === 'file' ? 'A file' : s === 'website' ? 'A website' : 'A text'}
          </button>
        ))}
      </fieldset>
      <Field label="Document name" name="name" errors={errors}>
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      {source === 'file' && (
        <Field label="File (PDF, DOCX, TXT, Markdown, HTML; up to 10 MB)" name="file" errors={errors}>
          <input
            type="file"
            accept=".pdf,.docx,.txt,.md,.html,.htm"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Field>
      )}
      {source === 'website' && (
        <Field label="Website address" name="url" errors={errors}>
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…" />
        </Field>
      )}
      {source === 'text' && (
        <Field label="Text" name="content" errors={errors}>
          <textarea rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
        </Field>
      )}
      {Object.keys(errors).length === 0 && <Failure error={add.error} />}
      <button type="submit" className="outline" aria-busy={add.isPending}>
        Add document
      </button>
    </form>
  );
}
