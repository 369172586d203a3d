import { ReactNode } from 'react';
import { ApiError } from './api';

/** An action's or a page's failure, in the API's own words. */
export function Failure({ error }: { error: unknown }) {
  if (!error) return null;
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <p role="alert" className="error">
      {notFound ? 'Not found.' : (error as Error).message}
    </p>
  );
}

/** A field's label, its input, and the API's validation messages for it right beside. */
export function Field({
  label,
  name,
  errors,
  children,
  hint,
}: {
  label: string;
  name: string;
  errors: Record<string, string[]>;
  children: ReactNode;
  hint?: string;
}) {
  const messages = errors[name] ?? [];
  return (
    <label>
      {label}
      {children}
      {hint && <small>{hint}</small>}
      {messages.map((m) => (
        <small key={m} className="error" id={`${name}-error`}>
          {m}
        </small>
      ))}
    </label>
  );
}

export function Loading({ what }: { what: string }) {
  return <p aria-busy="true">Loading {what}…</p>;
}

/** Page-based lists: the API's `current_page` and `last_page`. */
export function Pager({ page, last, onPage }: { page: number; last: number; onPage: (p: number) => void }) {
  if (last <= 1) return null;
  return (
    <nav aria-label="Pages" className="pager">
      <button type="button" className="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {last}
      </span>
      <button type="button" className="outline" disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
export const money = (n: number | null | undefined): string =>
  n === null || n === undefined ? '—' : `$${n.toFixed(4).replace(/0{1,2}$/, '')}`;
