import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../api';
import { Failure, Loading, money, Pager, when } from '../ui';

interface CallSummary {
  id: number;
  assistant_id: number;
  direction: string;
  status: string;
  customer_phone: string;
  duration: number;
  cost: number;
  ended_reason: string | null;
  created_at: string;
}
interface Page<T> {
  data: T[];
  current_page: number;
  last_page: number;
  total: number;
}

const STATUSES = [
  'initiated',
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
];

export function CallsPage() {
  const [filters, setFilters] = useState({
    assistant_id: '',
    status: '',
    direction: '',
    from: '',
    to: '',
    automation_run_id: '',
  });
  const [page, setPage] = useState(1);
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')) as Record<string, string>;
  const calls = useQuery({
    queryKey: ['calls', query, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      ok<Page<CallSummary>>(
        api.GET('/api/user/calls', { params: { query: { ...query, page, per_page: 25 } as never } }),
      ),
  });
  const set = (name: keyof typeof filters) => (e: { target: { value: string } }) => {
    setPage(1);
    setFilters({ ...filters, [name]: e.target.value });
  };
  return (
    <section>
      <h1>Calls</h1>
      <form className="filters" aria-label="Filter calls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Assistant id
          <input inputMode="numeric" value={filters.assistant_id} onChange={set('assistant_id')} />
        </label>
        <label>
          Status
          <select value={filters.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Direction
          <select value={filters.direction} onChange={set('direction')}>
            <option value="">Any</option>
            <option>outbound</option>
            <option>inbound</option>
          </select>
        </label>
        <label>
          From
          <input type="date" value={filters.from} onChange={set('from')} />
        </label>
        <label>
          To
          <input type="date" value={filters.to} onChange={set('to')} />
        </label>
        <label>
          Automation run
          <input value={filters.automation_run_id} onChange={set('automation_run_id')} placeholder="run_…" />
        </label>
      </form>
      <Failure error={calls.error} />
      {calls.isLoading ? (
        <Loading what="calls" />
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Call</th>
                <th scope="col">Assistant</th>
                <th scope="col">Direction</th>
                <th scope="col">Customer</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Cost</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {(calls.data?.data ?? []).map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/calls/${c.id}`}>#{c.id}</Link>
                  </td>
                  <td>{c.assistant_id}</td>
                  <td>{c.direction}</td>
                  <td>{c.customer_phone}</td>
                  <td>
                    {c.status}
                    {c.ended_reason ? ` · ${c.ended_reason}` : ''}
                  </td>
                  <td>{c.duration} s</td>
                  <td>{money(c.cost)}</td>
                  <td>{when(c.created_at)}</td>
                </tr>
              ))}
              {calls.data?.data.length === 0 && (
                <tr>
                  <td colSpan={8}>No calls match.</td>
                </tr>
              )}
            </tbody>
          </table>
          <Pager page={page} last={calls.data?.last_page ?? 1} onPage={setPage} />
        </>
      )}
    </section>
  );
}
