import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormEvent, useState } from 'react';
import { api, ok } from '../api';
import { Failure, Loading, money } from '../ui';

interface OwnedNumber {
  id: number;
  phone_number: string;
  type?: string;
  nickname?: string | null;
}
interface Offer {
  phone_number: string;
  phone_number_formatted: string;
  country_code: string;
  price: number;
  address_requirements: string;
}
interface AssistantRow {
  id: number;
  name: string;
  phone_number_id: number | null;
}

const COUNTRIES = ['US', 'CA', 'GB', 'AU', 'IL', 'PL', 'FI', 'NL', 'DK', 'IT', 'DE'];

/** Owned numbers (buy, assign to an assistant, release) and SIP trunks. */
export function NumbersPage() {
  const queries = useQueryClient();
  const numbers = useQuery({
    queryKey: ['numbers'],
    queryFn: () => ok<{ data: OwnedNumber[] }>(api.GET('/api/user/phone-numbers')),
  });
  const trunks = useQuery({
    queryKey: ['trunks'],
    queryFn: () =>
      ok<{ data: { id: number; phone_number: string; nickname?: string | null; sip_address?: string }[] }>(
        api.GET('/api/user/phone-numbers/sip-trunks'),
      ),
  });
  const assistants = useQuery({
    queryKey: ['assistants'],
    queryFn: () => ok<AssistantRow[]>(api.GET('/api/user/assistants')),
  });
  const changed = () => {
    void queries.invalidateQueries({ queryKey: ['numbers'] });
    void queries.invalidateQueries({ queryKey: ['assistants'] });
  };
  // A number is answered by the assistant whose `phone_number_id` names it: assigning edits that assistant.
  const assign = useMutation({
    mutationFn: async ({ numberId, assistantId }: { numberId: number; assistantId: number | null }) => {
      const current = (assistants.data ?? []).find((a) => a.phone_number_id === numberId);
      if (current && current.id !== assistantId)
        await ok(
          api.PUT('/api/user/assistant/{id}', {
            params: { path: { id: String(current.id) } },
            body: { phone_number_id: null } as never,
          }),
        );
      if (assistantId !== null)
        await ok(
          api.PUT('/api/user/assistant/{id}', {
            params: { path: { id: String(assistantId) } },
            body: { phone_number_id: numberId } as never,
          }),
        );
    },
    onSettled: changed,
  });
  const release = useMutation({
    mutationFn: (id: number) =>
      ok(api.DELETE('/api/user/phone-numbers/{id}', { params: { path: { id: String(id) } } })),
    onSuccess: changed,
  });
  const assistantOf = (numberId: number) =>
    (assistants.data ?? []).find((a) => a.phone_number_id === numberId)?.id ?? null;
  return (
    <section>
      <h1>Numbers and SIP trunks</h1>
      <Failure error={numbers.error ?? trunks.error ?? assistants.error ?? assign.error ?? release.error} />
      <h2>Phone numbers</h2>
      {numbers.isLoading ? (
        <Loading what="numbers" />
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Kind</th>
              <th scope="col">Assistant</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {(numbers.data?.data ?? []).map((n) => (
              <tr key={n.id}>
                <td>{n.phone_number}</td>
                <td>{n.type ?? '—'}</td>
                <td>
                  <select
                    aria-label={`Assistant on ${n.phone_number}`}
                    value={String(assistantOf(n.id) ?? '')}
                    onChange={(e) =>
                      assign.mutate({ numberId: n.id, assistantId: e.target.value ? Number(e.target.value) : null })
                    }
                  >
                    <option value="">None</option>
                    {(assistants.data ?? []).map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {n.type !== 'sip' && (
                    <button type="button" className="outline secondary" onClick={() => release.mutate(n.id)}>
                      Release {n.phone_number}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <BuyNumber onBought={changed} />
      <h2>SIP trunks</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Nickname</th>
            <th scope="col">SIP address</th>
          </tr>
        </thead>
        <tbody>
          {(trunks.data?.data ?? []).map((t) => (
            <tr key={t.id}>
              <td>{t.phone_number}</td>
              <td>{t.nickname ?? '—'}</td>
              <td>{t.sip_address ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Search the provider's inventory and buy one: the first month is charged to the balance. */
function BuyNumber({ onBought }: { onBought: () => void }) {
  const [country, setCountry] = useState('US');
  const [contains, setContains] = useState('');
  const [asked, setAsked] = useState<{ country: string; contains: string } | null>(null);
  const offers = useQuery({
    queryKey: ['number-offers', asked],
    enabled: asked !== null,
    queryFn: () =>
      ok<{ data: Offer[] }>(
        api.GET('/api/user/phone-numbers/search', {
          params: {
            query: { country_code: asked!.country, ...(asked!.contains ? { contains: asked!.contains } : {}) } as never,
          },
        }),
      ),
  });
  const buy = useMutation({
    mutationFn: (phone: string) =>
      ok<{ data: OwnedNumber }>(
        api.POST('/api/user/phone-numbers/purchase', { body: { phone_number: phone } as never }),
      ),
    onSuccess: () => {
      setAsked(null);
      onBought();
    },
  });
  const search = (e: FormEvent) => {
    e.preventDefault();
    setAsked({ country, contains });
  };
  return (
    <>
      <h2>Buy a number</h2>
      <form onSubmit={search} aria-label="Search numbers" className="inline">
        <label>
          Country
          <select value={country} onChange={(e) => setCountry(e.target.value)}>
            {COUNTRIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label>
          Digits it contains
          <input inputMode="numeric" value={contains} onChange={(e) => setContains(e.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      <Failure error={offers.error ?? buy.error} />
      {buy.isSuccess && <p role="status">Bought {buy.data.data.phone_number}.</p>}
      {offers.isFetching && <Loading what="numbers on offer" />}
      {offers.data && (
        <table>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Monthly</th>
              <th scope="col">Address needed</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {offers.data.data.map((o) => (
              <tr key={o.phone_number}>
                <td>
                  {o.phone_number_formatted} <small>{o.phone_number}</small>
                </td>
                <td>{money(o.price)}</td>
                <td>{o.address_requirements}</td>
                <td>
                  <button
                    type="button"
                    className="outline"
                    disabled={buy.isPending}
                    onClick={() => buy.mutate(o.phone_number)}
                  >
                    Buy {o.phone_number}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {offers.data?.data.length === 0 && <p>No number on offer matches.</p>}
    </>
  );
}
