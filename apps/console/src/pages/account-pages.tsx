import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, ApiError, ok } from '../api';
import { Failure, Field, Loading, money, Pager, when } from '../ui';
import type { Delivery } from './call';

interface ApiKey {
  id: number;
  name: string;
  last_used_at: string | null;
  created_at: string;
}

/** API keys: a new key's token is shown once, here, and never again. */
export function ApiKeysPage() {
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: () => ok<{ api_keys: ApiKey[] }>(api.GET('/api/user/api-keys')),
  });
  const create = useMutation({
    mutationFn: () => ok<{ api_key: { token: string } }>(api.POST('/api/user/api-keys', { body: { name } })),
    onSuccess: (answer) => {
      setShown(answer.api_key.token);
      setName('');
      void queries.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => ok(api.DELETE('/api/user/api-keys/{id}', { params: { path: { id: String(id) } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['api-keys'] }),
  });
  const errors = create.error instanceof ApiError ? create.error.fields : {};
  return (
    <section>
      <h1>API keys</h1>
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
        aria-label="New API key"
        className="inline"
      >
        <Field label="Name of the new key" name="name" errors={errors}>
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit">Create key</button>
      </form>
      {shown && (
        <article role="status">
          <p>Copy this key now: it is not shown again.</p>
          <code>{shown}</code>
        </article>
      )}
      <Failure error={keys.error ?? revoke.error ?? (Object.keys(errors).length ? null : create.error)} />
      {keys.isLoading ? (
        <Loading what="keys" />
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data?.api_keys ?? []).map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>{when(k.created_at)}</td>
                <td>{when(k.last_used_at)}</td>
                <td>
                  <button type="button" className="outline secondary" onClick={() => revoke.mutate(k.id)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The webhook delivery log, newest first, with replay. */
export function DeliveriesPage() {
  const queries = useQueryClient();
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['deliveries', status, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      ok<{ data: Delivery[]; last_page: number }>(
        api.GET('/api/user/webhooks/deliveries', {
          params: { query: { page, per_page: 25, ...(status ? { status } : {}) } as never },
        }),
      ),
  });
  const replay = useMutation({
    mutationFn: (id: string) => ok(api.POST('/api/user/webhooks/deliveries/{id}/replay', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  return (
    <section>
      <h1>Webhook deliveries</h1>
      <label>
        Status
        <select
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}
        >
          <option value="">Any</option>
          {['pending', 'succeeded', 'failed', 'canceled'].map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <Failure error={list.error ?? replay.error} />
      {list.isLoading ? (
        <Loading what="deliveries" />
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {(list.data?.data ?? []).map((d) => (
                <tr key={d.id}>
                  <td>{d.event_type}</td>
                  <td>{d.target_url}</td>
                  <td>{d.status}</td>
                  <td>{d.attempts_count}</td>
                  <td>{d.last_status_code ?? d.last_error ?? '—'}</td>
                  <td>{when(d.created_at)}</td>
                  <td>
                    <button
                      type="button"
                      className="outline"
                      disabled={d.status === 'pending'}
                      onClick={() => replay.mutate(d.id)}
                    >
                      Replay
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} last={list.data?.last_page ?? 1} onPage={setPage} />
        </>
      )}
    </section>
  );
}

interface TopUp {
  id: number;
  amount: number;
  status: string;
  checkout_url: string | null;
  created_at: string;
}
interface AutoRecharge {
  enabled: boolean;
  threshold: number | null;
  amount: number | null;
  payment_method_ready?: boolean;
  consecutive_failures?: number;
  last_error?: string | null;
}

/** Balance, top-ups (the sandbox checkout page, or Stripe's) and auto-recharge. */
export function BillingPage() {
  const queries = useQueryClient();
  const [amount, setAmount] = useState('20');
  const balance = useQuery({
    queryKey: ['balance'],
    queryFn: () => ok<{ total_balance: number }>(api.GET('/api/user/billing/balance')),
  });
  const topUps = useQuery({
    queryKey: ['top-ups'],
    queryFn: () => ok<{ data: TopUp[] }>(api.GET('/api/user/billing/top-ups')),
  });
  const create = useMutation({
    mutationFn: () =>
      ok<{ data: TopUp }>(api.POST('/api/user/billing/top-ups', { body: { amount: Number(amount) } as never })),
    onSuccess: (answer) => {
      void queries.invalidateQueries({ queryKey: ['top-ups'] });
      if (answer.data.checkout_url) window.location.assign(answer.data.checkout_url);
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fields : {};
  return (
    <section>
      <h1>Billing</h1>
      <Failure error={balance.error ?? topUps.error} />
      <p>
        Balance: <strong>{money(balance.data?.total_balance)}</strong>
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
        aria-label="Top up"
        className="inline"
      >
        <Field label="Top-up amount (USD)" name="amount" errors={errors}>
          <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        <button type="submit">Go to checkout</button>
      </form>
      {Object.keys(errors).length === 0 && <Failure error={create.error} />}
      <AutoRechargeSettings />
      <h2>Top-ups</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Top-up</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {(topUps.data?.data ?? []).map((t) => (
            <tr key={t.id}>
              <td>#{t.id}</td>
              <td>{money(t.amount)}</td>
              <td>{t.status}</td>
              <td>{when(t.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Auto-recharge: when the balance falls below the threshold, the saved card is charged the amount. */
function AutoRechargeSettings() {
  const queries = useQueryClient();
  const [form, setForm] = useState<{ enabled: boolean; threshold: string; amount: string } | null>(null);
  const stored = useQuery({
    queryKey: ['auto-recharge'],
    queryFn: () => ok<{ data: AutoRecharge }>(api.GET('/api/user/billing/auto-recharge')),
  });
  const settings = stored.data?.data;
  const shown = form ?? {
    enabled: settings?.enabled ?? false,
    threshold: settings?.threshold === null || settings?.threshold === undefined ? '' : String(settings.threshold),
    amount: settings?.amount === null || settings?.amount === undefined ? '' : String(settings.amount),
  };
  // Numbers go as numbers; anything else as typed, so the API's message names the field.
  const number = (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PUT('/api/user/billing/auto-recharge', {
          body: { enabled: shown.enabled, threshold: number(shown.threshold), amount: number(shown.amount) } as never,
        }),
      ),
    onSuccess: () => {
      setForm(null);
      void queries.invalidateQueries({ queryKey: ['auto-recharge'] });
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fields : {};
  const edit = (change: Partial<typeof shown>) => setForm({ ...shown, ...change });
  return (
    <>
      <h2>Auto-recharge</h2>
      <Failure error={stored.error} />
      <form
        aria-label="Auto-recharge"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Field label="Recharge automatically" name="enabled" errors={errors}>
          <input
            type="checkbox"
            role="switch"
            checked={shown.enabled}
            aria-invalid={errors.enabled ? true : undefined}
            onChange={(e) => edit({ enabled: e.target.checked })}
          />
        </Field>
        <div className="grid">
          <Field label="When the balance falls below (USD)" name="threshold" errors={errors}>
            <input
              inputMode="decimal"
              value={shown.threshold}
              aria-invalid={errors.threshold ? true : undefined}
              onChange={(e) => edit({ threshold: e.target.value })}
            />
          </Field>
          <Field label="Recharge amount (USD)" name="amount" errors={errors}>
            <input
              inputMode="decimal"
              value={shown.amount}
              aria-invalid={errors.amount ? true : undefined}
              onChange={(e) => edit({ amount: e.target.value })}
            />
          </Field>
        </div>
        <p>
          <small>
            {settings?.payment_method_ready
              ? 'A card is saved for recharges.'
              : 'No card is saved yet: a first top-up through checkout saves one.'}
            {settings?.last_error ? ` Last attempt failed: ${settings.last_error}` : ''}
          </small>
        </p>
        {Object.keys(errors).length === 0 && <Failure error={save.error} />}
        {save.isSuccess && <p role="status">Auto-recharge saved.</p>}
        <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
          Save auto-recharge
        </button>
      </form>
    </>
  );
}
