import { useMutation } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../api';
import { Failure } from '../ui';

/** The sandbox's pretend customer: no phone rings, the call is a text conversation. */
const TRY_PHONE = '+14155550100';

interface Line {
  role: 'customer' | 'assistant' | 'system';
  text: string;
}
interface Said {
  reply: string | null;
  tool_calls: { name: string; ok: boolean; status_code: number | null }[];
  ended: boolean;
}
interface CallDetail {
  data: {
    status: string;
    ended_reason: string | null;
    extracted_variables: Record<string, unknown>;
    tool_calls: unknown[];
  };
}

/** A sandbox text call with the assistant: every line, each tool call, and the extracted values at the end. */
export function TryIt({ assistantId }: { assistantId: number }) {
  const [callId, setCallId] = useState<number | null>(null);
  const [lines, setLines] = useState<Line[]>([]);
  const [text, setText] = useState('');
  const [ended, setEnded] = useState<CallDetail['data'] | null>(null);
  const path = (id: number) => ({ params: { path: { id: String(id) } } });
  const start = useMutation({
    mutationFn: async () => {
      const placed = await ok<{ call_id: number }>(
        api.POST('/api/user/make_call', { body: { assistant_id: assistantId, phone_number: TRY_PHONE } }),
      );
      await ok(api.POST('/api/sandbox/calls/{id}/answer', path(placed.call_id)));
      return placed.call_id;
    },
    onSuccess: (id) => {
      setCallId(id);
      setEnded(null);
      setLines([{ role: 'system', text: `Call ${id} answered.` }]);
    },
  });
  const finish = async (id: number) => {
    const detail = await ok<CallDetail>(api.GET('/api/user/calls/{id}', path(id)));
    setEnded(detail.data);
    setCallId(null);
  };
  const say = useMutation({
    mutationFn: (words: string) =>
      ok<Said>(api.POST('/api/sandbox/calls/{id}/say', { ...path(callId!), body: { text: words } })),
    onMutate: (words) => setLines((l) => [...l, { role: 'customer', text: words }]),
    onSuccess: async (said) => {
      const tools = said.tool_calls.map(
        (t): Line => ({
          role: 'system',
          text: `Tool ${t.name}: ${t.ok ? 'ok' : 'failed'}${t.status_code === null ? '' : ` (${t.status_code})`}`,
        }),
      );
      setLines((l) => [...l, ...tools, ...(said.reply ? [{ role: 'assistant' as const, text: said.reply }] : [])]);
      setText('');
      if (said.ended) await finish(callId!);
    },
  });
  const hangUp = useMutation({
    mutationFn: async () => {
      await ok(api.POST('/api/sandbox/calls/{id}/finish', { ...path(callId!), body: { status: 'completed' } }));
      return callId!;
    },
    onSuccess: (id) => finish(id),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) say.mutate(text);
  };
  return (
    <aside aria-label="Try it">
      <h2>Try it without a phone</h2>
      <ol className="dialogue" aria-live="polite">
        {lines.map((line, i) => (
          <li key={i} className={line.role}>
            <strong>{line.role === 'customer' ? 'You' : line.role === 'assistant' ? 'Assistant' : '·'}</strong>{' '}
            {line.text}
          </li>
        ))}
      </ol>
      {callId === null ? (
        <button type="button" onClick={() => start.mutate()} aria-busy={start.isPending}>
          Start a text call
        </button>
      ) : (
        <form onSubmit={submit} aria-label="Say something">
          <label>
            Your words
            <input value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" />
          </label>
          <div className="toolbar">
            <button type="submit" aria-busy={say.isPending} disabled={say.isPending}>
              Say
            </button>
            <button type="button" className="outline secondary" onClick={() => hangUp.mutate()}>
              Hang up
            </button>
          </div>
        </form>
      )}
      <Failure error={start.error ?? say.error ?? hangUp.error} />
      {ended && (
        <article aria-label="Call ended">
          <p>
            Ended: {ended.status}
            {ended.ended_reason ? ` (${ended.ended_reason})` : ''}
          </p>
          <pre>{JSON.stringify(ended.extracted_variables, null, 2)}</pre>
        </article>
      )}
      {ended === null && callId !== null && (
        <p>
          <Link to={`/calls/${callId}`}>Open call {callId}</Link>
        </p>
      )}
    </aside>
  );
}
