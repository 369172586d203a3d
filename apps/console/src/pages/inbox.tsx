import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, currentToken, ok } from '../api';
import { Failure, Loading, when } from '../ui';

interface Conversation {
  uuid: string;
  sender_id: number;
  customer_phone: string;
  customer_name: string | null;
  status: string;
  ai_enabled: boolean;
  message_count: number;
  last_message_at: string | null;
  window_expires_at: string | null;
}
interface Message {
  id: number;
  direction: string;
  source: string;
  type: string;
  body: string | null;
  status: string;
  error_code: string | null;
  created_at: string;
}
interface Template {
  id: number;
  name: string;
  status: string;
  body_text: string;
  variables: string[];
}
interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
}

const TICKS: Record<string, string> = {
  queued: 'queued',
  sent: '✓ sent',
  delivered: '✓✓ delivered',
  read: '✓✓ read',
  failed: '✗ failed',
  received: '',
};

/** Chat-app conversations, newest activity first; the open one's messages; live through the event stream. */
export function InboxPage() {
  const { uuid } = useParams();
  const conversations = useInfiniteQuery({
    queryKey: ['conversations', 'list'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      ok<CursorPage<Conversation>>(
        api.GET('/api/user/conversations', {
          params: { query: { per_page: 30, ...(pageParam ? { cursor: pageParam } : {}) } as never },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const list = conversations.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className="inbox">
      <nav aria-label="Conversations">
        <h1>Inbox</h1>
        <Failure error={conversations.error} />
        {conversations.isLoading && <Loading what="conversations" />}
        <ul>
          {list.map((c) => (
            <li key={c.uuid} aria-current={c.uuid === uuid ? 'page' : undefined}>
              <Link to={`/inbox/${c.uuid}`}>{c.customer_name ?? c.customer_phone}</Link>
              <small>
                {' '}
                {c.message_count} messages · {when(c.last_message_at)}
                {c.ai_enabled ? '' : ' · a person answers'}
              </small>
            </li>
          ))}
          {!conversations.isLoading && list.length === 0 && <li>No conversations yet.</li>}
        </ul>
        {conversations.hasNextPage && (
          <button type="button" className="outline" onClick={() => void conversations.fetchNextPage()}>
            Older conversations
          </button>
        )}
      </nav>
      {uuid ? <ConversationPane uuid={uuid} /> : <p>Choose a conversation.</p>}
    </section>
  );
}

function ConversationPane({ uuid }: { uuid: string }) {
  const queries = useQueryClient();
  const path = { params: { path: { uuid } } };
  const conversation = useQuery({
    queryKey: ['conversations', 'one', uuid],
    queryFn: () => ok<{ data: Conversation }>(api.GET('/api/user/conversations/{uuid}', path)),
  });
  const messages = useQuery({
    queryKey: ['conversations', 'messages', uuid],
    queryFn: () =>
      ok<CursorPage<Message>>(
        api.GET('/api/user/conversations/{uuid}/messages', {
          ...path,
          params: { ...path.params, query: { per_page: 100 } as never },
        }),
      ),
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['conversations'] });
  const toggle = useMutation({
    mutationFn: (takeOver: boolean) =>
      ok(
        takeOver
          ? api.POST('/api/user/conversations/{uuid}/disable-ai', path)
          : api.POST('/api/user/conversations/{uuid}/enable-ai', path),
      ),
    onSuccess: refresh,
  });
  if (conversation.error)
    return (
      <div>
        <Failure error={conversation.error} />
      </div>
    );
  if (!conversation.data) return <Loading what="the conversation" />;
  const c = conversation.data.data;
  const ordered = [...(messages.data?.data ?? [])].reverse();
  const signedInWithPassword = currentToken()?.startsWith('vps_') ?? false;
  const windowOpen = c.window_expires_at !== null && new Date(c.window_expires_at).getTime() > Date.now();
  return (
    <article aria-label="Conversation">
      <header>
        <h2>{c.customer_name ?? c.customer_phone}</h2>
        <p>
          {c.customer_phone} · {c.status} · {c.ai_enabled ? 'the assistant answers' : 'a person answers'}
        </p>
        {/* The API lets only API keys switch the AI off or on: a signed-in person is told so before trying. */}
        {c.ai_enabled ? (
          <button
            type="button"
            disabled={signedInWithPassword}
            aria-describedby={signedInWithPassword ? 'take-over-rule' : undefined}
            onClick={() => toggle.mutate(true)}
          >
            Take over
          </button>
        ) : (
          <button
            type="button"
            className="secondary"
            disabled={signedInWithPassword}
            aria-describedby={signedInWithPassword ? 'take-over-rule' : undefined}
            onClick={() => toggle.mutate(false)}
          >
            Hand back to the assistant
          </button>
        )}
        <Failure error={toggle.error} />
        {signedInWithPassword && (
          <small id="take-over-rule">
            Taking over and handing back are open to API keys only: sign out and sign in with an API key (API keys page)
            to answer customers yourself.
          </small>
        )}
      </header>
      <Failure error={messages.error} />
      <ol className="dialogue" aria-live="polite" aria-label="Messages">
        {ordered.map((m) => (
          <li key={m.id} className={m.direction === 'inbound' ? 'customer' : 'assistant'}>
            <strong>
              {m.direction === 'inbound'
                ? 'Customer'
                : m.source === 'ai'
                  ? 'Assistant'
                  : m.source === 'api'
                    ? 'You'
                    : m.source}
            </strong>{' '}
            {m.body ?? `[${m.type}]`}{' '}
            <small title={m.status}>
              {TICKS[m.status] ?? m.status}
              {m.error_code ? ` ${m.error_code}` : ''}
            </small>
          </li>
        ))}
      </ol>
      {windowOpen ? (
        <FreeformReply conversation={c} onSent={refresh} />
      ) : (
        <TemplateReply conversation={c} onSent={refresh} />
      )}
    </article>
  );
}

function FreeformReply({ conversation: c, onSent }: { conversation: Conversation; onSent: () => void }) {
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/user/chatapp/send-freeform', {
          body: { sender_id: c.sender_id, recipient_phone: c.customer_phone, message: text } as never,
        }),
      ),
    onSuccess: () => {
      setText('');
      onSent();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) send.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Your reply">
      <label>
        Reply
        <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <small>
        The customer wrote within the last 24 hours: any message may be sent until {when(c.window_expires_at)}.
      </small>
      <Failure error={send.error} />
      <button type="submit" aria-busy={send.isPending} disabled={send.isPending}>
        Send
      </button>
    </form>
  );
}

function TemplateReply({ conversation: c, onSent }: { conversation: Conversation; onSent: () => void }) {
  const [templateId, setTemplateId] = useState('');
  const templates = useQuery({
    queryKey: ['templates', c.sender_id],
    queryFn: () =>
      ok<{ data: Template[] }>(
        api.GET('/api/user/chatapp/senders/{sender_id}/templates', {
          params: { path: { sender_id: String(c.sender_id) } },
        }),
      ),
  });
  const approved = (templates.data?.data ?? []).filter((t) => t.status === 'approved');
  const send = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/user/chatapp/send', {
          body: { sender_id: c.sender_id, template_id: Number(templateId), recipient_phone: c.customer_phone } as never,
        }),
      ),
    onSuccess: onSent,
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
      aria-label="Send a template"
    >
      <p>
        The customer has not written in the last 24 hours: the chat app accepts only an approved template until they do.
      </p>
      <label>
        Template
        <select value={templateId} onChange={(e) => setTemplateId(e.target.value)} required>
          <option value="">Choose an approved template</option>
          {approved.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}: {t.body_text}
            </option>
          ))}
        </select>
      </label>
      {approved.length === 0 && !templates.isLoading && <small>This sender has no approved template.</small>}
      <Failure error={templates.error ?? send.error} />
      <button type="submit" disabled={!templateId || send.isPending}>
        Send template
      </button>
    </form>
  );
}
