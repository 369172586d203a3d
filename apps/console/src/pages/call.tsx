import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api, currentToken, ok } from '../api';
import { Failure, Loading, money, when } from '../ui';

interface ToolCall {
  id: string;
  name: string;
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  at: string;
  [key: string]: unknown;
}
interface Call {
  id: number;
  assistant_id: number;
  direction: string;
  channel: string;
  status: string;
  customer_phone: string;
  assistant_phone: string | null;
  duration: number;
  cost: number;
  ended_reason: string | null;
  recording_url: string | null;
  variables: Record<string, unknown>;
  extracted_variables: Record<string, unknown>;
  transcript_items: { role: string; content: string; at: string }[];
  tool_calls: ToolCall[];
  created_at: string;
  answered_at: string | null;
  finished_at: string | null;
}
export interface Delivery {
  id: string;
  event_type: string;
  status: string;
  attempts_count: number;
  last_status_code: number | null;
  last_error: string | null;
  target_url: string;
  subject: { type: string; id: number } | null;
  created_at: string;
}

/** The recording, fetched with the session's token and played from memory (an <audio src> cannot carry the token). */
function Recording({ id }: { id: number }) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    fetch(`/api/user/calls/${id}/recording`, { headers: { Authorization: `Bearer ${currentToken() ?? ''}` } })
      .then(async (res) => {
        if (!res.ok)
          throw new Error(
            res.status === 404
              ? 'The recording is not available.'
              : `The recording could not be loaded (${res.status}).`,
          );
        url = URL.createObjectURL(await res.blob());
        setSrc(url);
      })
      .catch((e: Error) => setError(e.message));
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);
  if (error) return <p>{error}</p>;
  return src ? (
    <audio controls src={src} aria-label="Call recording" />
  ) : (
    <p aria-busy="true">Loading the recording…</p>
  );
}

export function CallPage() {
  const { id } = useParams();
  const queries = useQueryClient();
  const call = useQuery({
    queryKey: ['calls', 'one', id],
    queryFn: () => ok<{ data: Call }>(api.GET('/api/user/calls/{id}', { params: { path: { id: String(id) } } })),
  });
  const deliveries = useQuery({
    queryKey: ['deliveries', 'call', id],
    enabled: !!call.data,
    queryFn: () =>
      ok<{ data: Delivery[] }>(
        api.GET('/api/user/webhooks/deliveries', {
          params: {
            query: { source_type: 'assistant', source_id: call.data!.data.assistant_id, per_page: 100 } as never,
          },
        }),
      ),
  });
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      ok(api.POST('/api/user/webhooks/deliveries/{id}/replay', { params: { path: { id: deliveryId } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  if (call.error)
    return (
      <section>
        <h1>Call</h1>
        <Failure error={call.error} />
      </section>
    );
  if (!call.data) return <Loading what="the call" />;
  const c = call.data.data;
  const mine = (deliveries.data?.data ?? []).filter((d) => d.subject?.type === 'call' && d.subject.id === c.id);
  return (
    <section>
      <hgroup>
        <h1>Call #{c.id}</h1>
        <p>
          {c.direction} {c.channel} call with {c.customer_phone} · assistant {c.assistant_id}
        </p>
      </hgroup>
      <div className="grid">
        <article>
          <h2>Outcome</h2>
          <dl>
            <dt>Status</dt>
            <dd>{c.status}</dd>
            <dt>Ended reason</dt>
            <dd>{c.ended_reason ?? '—'}</dd>
            <dt>Duration</dt>
            <dd>{c.duration} s</dd>
            <dt>Cost</dt>
            <dd>{money(c.cost)}</dd>
            <dt>Created</dt>
            <dd>{when(c.created_at)}</dd>
            <dt>Finished</dt>
            <dd>{when(c.finished_at)}</dd>
          </dl>
        </article>
        <article>
          <h2>Variables</h2>
          <h3>Extracted</h3>
          <pre>{JSON.stringify(c.extracted_variables, null, 2)}</pre>
          <h3>Input</h3>
          <pre>{JSON.stringify(c.variables, null, 2)}</pre>
        </article>
      </div>
      <h2>Recording</h2>
      {c.recording_url ? <Recording id={c.id} /> : <p>This call was not recorded.</p>}
      <h2>Transcript</h2>
      <ol className="dialogue">
        {c.transcript_items.map((t, i) => (
          <li key={i} className={t.role}>
            <strong>{t.role === 'customer' ? 'Customer' : 'Assistant'}</strong> {t.content}
          </li>
        ))}
        {c.transcript_items.length === 0 && <li>No transcript.</li>}
      </ol>
      <h2>Tool calls</h2>
      {c.tool_calls.length === 0 ? (
        <p>None.</p>
      ) : (
        c.tool_calls.map((t) => (
          <details key={t.id}>
            <summary>
              {t.name} — {t.ok ? 'ok' : 'failed'}
              {t.status_code === null ? '' : ` (${t.status_code})`}, {t.duration_ms} ms
            </summary>
            <pre>{JSON.stringify(t, null, 2)}</pre>
          </details>
        ))
      )}
      <h2>Webhook deliveries</h2>
      <Failure error={deliveries.error ?? resend.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {mine.map((d) => (
            <tr key={d.id}>
              <td>{d.event_type}</td>
              <td>{d.status}</td>
              <td>{d.attempts_count}</td>
              <td>{d.last_status_code ?? d.last_error ?? '—'}</td>
              <td>
                <button
                  type="button"
                  className="outline"
                  disabled={d.status === 'pending'}
                  onClick={() => resend.mutate(d.id)}
                >
                  Resend
                </button>
              </td>
            </tr>
          ))}
          {mine.length === 0 && (
            <tr>
              <td colSpan={5}>No deliveries for this call.</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
