import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../api';
import { Failure, Loading } from '../ui';

interface AssistantSummary {
  id: number;
  name: string;
  type: string;
  status: string;
  folder_id: number | null;
  label_ids: number[];
}
interface Group {
  id: number;
  name: string;
}

export function AssistantsPage() {
  const [folder, setFolder] = useState<string>('');
  const assistants = useQuery({
    queryKey: ['assistants'],
    queryFn: () => ok<AssistantSummary[]>(api.GET('/api/user/assistants')),
  });
  const folders = useQuery({
    queryKey: ['folders'],
    queryFn: () => ok<{ data: Group[] }>(api.GET('/api/user/folders')),
  });
  const labels = useQuery({ queryKey: ['labels'], queryFn: () => ok<{ data: Group[] }>(api.GET('/api/user/labels')) });
  const nameOf = (list: Group[] | undefined, id: number) => list?.find((g) => g.id === id)?.name ?? `#${id}`;
  const shown = (assistants.data ?? []).filter((a) => folder === '' || String(a.folder_id ?? '') === folder);
  return (
    <section>
      <hgroup>
        <h1>Assistants</h1>
        <p>Write an assistant, try it without a phone, activate it.</p>
      </hgroup>
      <div className="toolbar">
        <Link role="button" to="/assistants/new">
          New assistant
        </Link>
        <label>
          Folder
          <select value={folder} onChange={(e) => setFolder(e.target.value)}>
            <option value="">All folders</option>
            {(folders.data?.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Failure error={assistants.error} />
      {assistants.isLoading ? (
        <Loading what="assistants" />
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Folder</th>
              <th scope="col">Labels</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link to={`/assistants/${a.id}`}>{a.name}</Link>
                </td>
                <td>{a.type}</td>
                <td>{a.status}</td>
                <td>{a.folder_id === null ? '—' : nameOf(folders.data?.data, a.folder_id)}</td>
                <td>{a.label_ids.map((id) => nameOf(labels.data?.data, id)).join(', ') || '—'}</td>
              </tr>
            ))}
            {shown.length === 0 && (
              <tr>
                <td colSpan={5}>No assistants yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
