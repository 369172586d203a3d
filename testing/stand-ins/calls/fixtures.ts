import type { TestApi, TestUser } from '@voiceplane/test-env';

/** Shared steps of the calls suites: assistants, numbers and calls made through the public API. */

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const CUSTOMER = '+14155551234';
export const SANDBOX_LINE = '+15005550000';

async function created(
  res: { status: number; body: { data?: { id?: number } } },
  what: string,
  expected = 201,
): Promise<number> {
  if (res.status !== expected) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data?.id as number;
}

export async function createAssistant(
  t: TestApi,
  user: TestUser,
  fields: Record<string, unknown> = {},
): Promise<number> {
  return created(
    await t.http
      .post('/api/user/assistant')
      .set(user.auth)
      .send({ name: 'Caller', system_prompt: 'Be brief.', ...fields }),
    'assistant create',
  );
}

export async function updateAssistant(
  t: TestApi,
  user: TestUser,
  id: number,
  fields: Record<string, unknown>,
): Promise<void> {
  await created(await t.http.put(`/api/user/assistant/${id}`).set(user.auth).send(fields), 'assistant update', 200);
}

/** An inbound assistant on a new number, activated. */
export async function inboundAssistant(
  t: TestApi,
  user: TestUser,
  phoneNumberId: number,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const id = await createAssistant(t, user, { type: 'inbound', phone_number_id: phoneNumberId, ...fields });
  await created(await t.http.post(`/api/user/assistant/${id}/activate`).set(user.auth), 'activate', 200);
  return id;
}

/** A sandbox number nobody owns, bought for the user. */
export async function purchaseNumber(t: TestApi, user: TestUser): Promise<{ id: number; phoneNumber: string }> {
  const owned = new Set(
    (await t.db.dataSource.query(`SELECT phone_number FROM phone_numbers`)).map(
      (r: { phone_number: string }) => r.phone_number,
    ),
  );
  const offers = (await t.http.get('/api/user/phone-numbers/search?country_code=US').set(user.auth)).body
    .data as Array<{ phone_number: string; address_requirements: string }>;
  const offer = offers.find((o) => o.address_requirements === 'none' && !owned.has(o.phone_number));
  if (!offer) throw new Error('no free sandbox number');
  const id = await created(
    await t.http.post('/api/user/phone-numbers/purchase').set(user.auth).send({ phone_number: offer.phone_number }),
    'purchase',
  );
  return { id, phoneNumber: offer.phone_number };
}

let trunkCounter = 0;
export async function createSipTrunk(t: TestApi, user: TestUser, fields: Record<string, unknown> = {}) {
  trunkCounter += 1;
  const res = await t.http
    .post('/api/user/phone-numbers/sip-trunks')
    .set(user.auth)
    .send({
      phone_number: `+4930555${String(trunkCounter).padStart(4, '0')}`,
      sip_username: 'acme-trunk',
      sip_password: 'secret-1',
      sip_address: 'sip.carrier.example',
      ...fields,
    });
  await created(res, 'sip trunk create');
  return res.body.data as { id: number; phone_number: string; inbound_trunk_id: string; outbound_trunk_id: string };
}

export async function makeCall(
  t: TestApi,
  user: TestUser,
  assistantId: number,
  phoneNumber = CUSTOMER,
  variables?: Record<string, unknown>,
): Promise<number> {
  const res = await t.http
    .post('/api/user/make_call')
    .set(user.auth)
    .send({ assistant_id: assistantId, phone_number: phoneNumber, variables });
  if (res.status !== 200) throw new Error(`make_call failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.call_id;
}

export async function getCall(t: TestApi, user: TestUser, id: number) {
  const res = await t.http.get(`/api/user/calls/${id}`).set(user.auth);
  if (res.status !== 200) throw new Error(`get call failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function balanceOf(t: TestApi, user: TestUser): Promise<number> {
  return (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance;
}

export async function blockAssistant(t: TestApi, id: number, blocked = true): Promise<void> {
  await created(
    await t.http.put(`/api/admin/assistants/${id}/compliance`).set(t.admin).send({ blocked }),
    'compliance',
    200,
  );
}
