import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, ok } from '../api';
import { Failure, Loading, money } from '../ui';

interface Analytics {
  from: string;
  to: string;
  totals: {
    calls: number;
    answered: number;
    answer_rate: number | null;
    average_duration: number | null;
    p95_duration: number | null;
    cost: number;
    success_rate: number | null;
  };
  days: { date: string; calls: number; by_status: Record<string, number>; cost: number }[];
  ended_reasons: { ended_reason: string; calls: number }[];
}

const COLORS: Record<string, string> = {
  completed: '#2e7d32',
  'no-answer': '#f9a825',
  busy: '#6d4c41',
  failed: '#c62828',
  canceled: '#757575',
};
const percent = (n: number | null) => (n === null ? '—' : `${Math.round(n * 1000) / 10} %`);

/** The calls dashboard: GET /api/user/analytics/calls for a date range and an assistant. */
export function AnalyticsPage() {
  const [range, setRange] = useState({ from: '', to: '', assistant_id: '' });
  const query = Object.fromEntries(Object.entries(range).filter(([, v]) => v !== ''));
  const analytics = useQuery({
    queryKey: ['analytics', query],
    queryFn: () => ok<{ data: Analytics }>(api.GET('/api/user/analytics/calls', { params: { query: query as never } })),
  });
  const set = (name: keyof typeof range) => (e: { target: { value: string } }) =>
    setRange({ ...range, [name]: e.target.value });
  const a = analytics.data?.data;
  const statuses = [...new Set((a?.days ?? []).flatMap((d) => Object.keys(d.by_status)))];
  const rows = (a?.days ?? []).map((d) => ({ date: d.date.slice(5), cost: d.cost, ...d.by_status }));
  return (
    <section>
      <h1>Analytics</h1>
      <form className="filters" aria-label="Range" onSubmit={(e) => e.preventDefault()}>
        <label>
          From
          <input type="date" value={range.from} onChange={set('from')} />
        </label>
        <label>
          To
          <input type="date" value={range.to} onChange={set('to')} />
        </label>
        <label>
          Assistant id
          <input inputMode="numeric" value={range.assistant_id} onChange={set('assistant_id')} />
        </label>
      </form>
      <Failure error={analytics.error} />
      {analytics.isLoading && <Loading what="analytics" />}
      {a && (
        <>
          <div className="grid figures">
            <article>
              <h2>Calls</h2>
              <p>{a.totals.calls}</p>
            </article>
            <article>
              <h2>Answer rate</h2>
              <p>{percent(a.totals.answer_rate)}</p>
            </article>
            <article>
              <h2>Average duration</h2>
              <p>{a.totals.average_duration ?? '—'} s</p>
            </article>
            <article>
              <h2>p95 duration</h2>
              <p>{a.totals.p95_duration ?? '—'} s</p>
            </article>
            <article>
              <h2>Success rate</h2>
              <p>{percent(a.totals.success_rate)}</p>
            </article>
            <article>
              <h2>Cost</h2>
              <p>{money(a.totals.cost)}</p>
            </article>
          </div>
          <h2>Calls per day by outcome</h2>
          <figure aria-label="Calls per day by outcome">
            <ResponsiveContainer width="100%" height={260}>
              <BarChart data={rows}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Legend />
                {statuses.map((s) => (
                  <Bar key={s} dataKey={s} stackId="calls" fill={COLORS[s] ?? '#1565c0'} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </figure>
          <h2>Cost per day</h2>
          {/* One bar a day (a quiet day is an empty slot): a line would draw costs between days that had none. */}
          <figure aria-label="Cost per day">
            <ResponsiveContainer width="100%" height={200}>
              <BarChart data={rows}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" />
                <YAxis />
                <Tooltip />
                <Bar dataKey="cost" name="Cost (USD)" fill="#1565c0" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </figure>
          <h2>Top ended reasons</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Ended reason</th>
                <th scope="col">Calls</th>
              </tr>
            </thead>
            <tbody>
              {a.ended_reasons.map((r) => (
                <tr key={r.ended_reason}>
                  <td>{r.ended_reason}</td>
                  <td>{r.calls}</td>
                </tr>
              ))}
              {a.ended_reasons.length === 0 && (
                <tr>
                  <td colSpan={2}>No ended calls in this range.</td>
                </tr>
              )}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
