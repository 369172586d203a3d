import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { currentToken } from './api';

export interface AccountEvent {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

type Listener = (e: AccountEvent) => void;
const listeners = new Set<Listener>();

/**
 * Reads GET /api/user/events/stream with fetch (EventSource cannot send the Authorization header),
 * reconnecting with Last-Event-ID after a drop. Every event refreshes the queries it concerns;
 * `resumed:false` (the events missed are no longer held) refreshes everything.
 */
export function useAccountEvents(): 'live' | 'connecting' {
  const queries = useQueryClient();
  const [state, setState] = useState<'live' | 'connecting'>('connecting');
  useEffect(() => {
    const abort = new AbortController();
    let lastId: string | null = null;
    const refresh = (e: AccountEvent) => {
      if (e.type.startsWith('message.') || e.type === 'conversation.ended')
        void queries.invalidateQueries({ queryKey: ['conversations'] });
      if (e.type.startsWith('call.')) {
        void queries.invalidateQueries({ queryKey: ['calls'] });
        void queries.invalidateQueries({ queryKey: ['analytics'] });
      }
      for (const listener of listeners) listener(e);
    };
    const read = async () => {
      while (!abort.signal.aborted) {
        try {
          const headers: Record<string, string> = { Authorization: `Bearer ${currentToken() ?? ''}` };
          if (lastId) headers['Last-Event-ID'] = lastId;
          const res = await fetch('/api/user/events/stream', { headers, signal: abort.signal });
          if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
          setState('live');
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let pending = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            pending += value;
            let end = pending.indexOf('\n\n');
            while (end >= 0) {
              const block = pending.slice(0, end);
              pending = pending.slice(end + 2);
              end = pending.indexOf('\n\n');
              const fields = Object.fromEntries(
                block
                  .split('\n')
                  .filter((l) => !l.startsWith(':'))
                  .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
              );
              if (!fields.data) continue;
              if (fields.event === 'ready') {
                if (!JSON.parse(fields.data).resumed) void queries.invalidateQueries();
                continue;
              }
              if (fields.id) lastId = fields.id;
              const parsed = JSON.parse(fields.data) as { type: string; data: Record<string, unknown> };
              refresh({ id: fields.id ?? '', type: parsed.type, data: parsed.data });
            }
          }
        } catch {
          if (abort.signal.aborted) return;
        }
        setState('connecting');
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    };
    void read();
    return () => abort.abort();
  }, [queries]);
  return state;
}

/** Hears each event the console's stream receives (the inbox shows new messages as they come). */
export function onAccountEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
