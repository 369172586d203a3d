import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A stub of the parts of Stripe's API voiceplane calls, on 127.0.0.1: customers, Checkout
 * Sessions and PaymentIntents, answered with objects shaped like Stripe's documented ones. It
 * records every request (form fields decoded, idempotency key kept) and honours idempotency keys
 * as Stripe does: the same key answers the first object again. It also signs events exactly as
 * Stripe signs webhooks, with the official library's test helper.
 */

export interface StripeRequest {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | null;
  readonly authorization: string | undefined;
  /** Form fields as Stripe's client encodes them (`line_items[0][quantity]`). */
  readonly form: Record<string, string>;
}

/** Cards the stub declines off-session, as Stripe's test card `pm_card_chargeDeclined` is. */
export const DECLINED_PAYMENT_METHOD = 'pm_card_chargeDeclined';
export const SAVED_PAYMENT_METHOD = 'pm_card_visa_saved';

export class StripeStub {
  readonly requests: StripeRequest[] = [];
  /** Answer every request with this status (an outage) while set. */
  outage: number | null = null;
  private readonly byKey = new Map<string, { status: number; body: unknown }>();
  private readonly intents = new Map<string, Record<string, unknown>>();
  private readonly sessions = new Map<string, Record<string, unknown>>();
  private seq = 0;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<StripeStub> {
    let stub: StripeStub | undefined;
    const server = createServer((req, res) => (stub as StripeStub).handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub = new StripeStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return stub;
  }

  reset(): void {
    this.requests.length = 0;
    this.byKey.clear();
    this.outage = null;
  }

  to(path: string): StripeRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /**
   * An off-session PaymentIntent Stripe made for a top-up, as a charge whose answer never reached
   * voiceplane leaves it (`status` `succeeded`, `processing`, …).
   */
  offSessionIntent(topUpId: number, status: string): string {
    const id = this.id('pi');
    this.intents.set(
      id,
      intent(id, {
        amount: 2500,
        customer: null,
        payment_method: SAVED_PAYMENT_METHOD,
        status,
        metadata: { voiceplane_top_up_id: String(topUpId), voiceplane_trigger: 'auto' },
      }),
    );
    return id;
  }

  /** A PaymentIntent as a Checkout Session leaves it: paid with the card it saved. */
  checkoutIntent(customer: string): string {
    const id = this.id('pi');
    this.intents.set(
      id,
      intent(id, { amount: 5000, customer, payment_method: SAVED_PAYMENT_METHOD, status: 'succeeded', metadata: {} }),
    );
    return id;
  }

  /** A Checkout Session paid on Stripe's page (its event never reaching voiceplane): complete, paid, with the card it saved. */
  payCheckout(sessionId: string): string {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const intentId = this.checkoutIntent(session.customer as string);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intentId });
    return intentId;
  }

  /** A Checkout Session whose page expired unpaid. */
  expireCheckout(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    Object.assign(session, { status: 'expired', url: null });
  }

  private id(prefix: string): string {
    this.seq += 1;
    return `${prefix}_stub${String(this.seq).padStart(6, '0')}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const request: StripeRequest = {
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0],
        idempotencyKey: key,
        authorization: req.headers.authorization,
        form: Object.fromEntries(
          new URLSearchParams(req.method === 'GET' ? ((req.url ?? '').split('?')[1] ?? '') : raw),
        ),
      };
      this.requests.push(request);
      const answer =
        this.outage !== null
          ? { status: this.outage, body: { error: { type: 'api_error', message: 'Stub outage.' } } }
          : (key && this.byKey.get(`${request.path} ${key}`)) || this.answer(request);
      if (key && this.outage === null) this.byKey.set(`${request.path} ${key}`, answer);
      res
        .writeHead(answer.status, { 'Content-Type': 'application/json', 'Request-Id': `req_${this.seq}` })
        .end(JSON.stringify(answer.body));
    });
  }

  private answer(r: StripeRequest): { status: number; body: unknown } {
    const f = r.form;
    if (r.method === 'POST' && r.path === '/v1/customers') {
      return ok({
        id: this.id('cus'),
        object: 'customer',
        email: f.email ?? null,
        name: f.name ?? null,
        metadata: metadataOf(f),
        livemode: false,
      });
    }
    if (r.method === 'POST' && r.path === '/v1/checkout/sessions') {
      const id = this.id('cs_test');
      const session = {
        id,
        object: 'checkout.session',
        mode: f.mode,
        status: 'open',
        payment_status: 'unpaid',
        customer: f.customer ?? null,
        client_reference_id: f.client_reference_id ?? null,
        currency: 'usd',
        amount_total: Number(f['line_items[0][price_data][unit_amount]']),
        metadata: metadataOf(f),
        payment_intent: null,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
        livemode: false,
      };
      this.sessions.set(id, session);
      return ok({ ...session });
    }
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(r.path);
    if (r.method === 'GET' && session) {
      const found = this.sessions.get(session[1]);
      if (!found)
        return {
          status: 404,
          body: {
            error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' },
          },
        };
      // `expand[]=payment_intent` answers the intent object in place of its id, as Stripe does.
      const expand = Object.entries(f).some(([k, v]) => k.startsWith('expand') && v === 'payment_intent');
      const intentId = found.payment_intent as string | null;
      return ok({ ...found, payment_intent: expand && intentId ? (this.intents.get(intentId) ?? null) : intentId });
    }
    if (r.method === 'POST' && r.path === '/v1/payment_intents') {
      const id = this.id('pi');
      if (f.payment_method === DECLINED_PAYMENT_METHOD) {
        const declined = intent(id, {
          amount: Number(f.amount),
          customer: f.customer,
          payment_method: f.payment_method,
          status: 'requires_payment_method',
          metadata: metadataOf(f),
        });
        this.intents.set(id, declined);
        return {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
              payment_intent: declined,
            },
          },
        };
      }
      const paid = intent(id, {
        amount: Number(f.amount),
        customer: f.customer,
        payment_method: f.payment_method,
        status: 'succeeded',
        metadata: metadataOf(f),
      });
      this.intents.set(id, paid);
      return ok(paid);
    }
    if (r.method === 'GET' && r.path === '/v1/payment_intents/search') {
      // Only the metadata clause voiceplane sends: metadata['key']:'value'.
      const clause = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(f.query ?? '');
      const data = clause
        ? [...this.intents.values()].filter((i) => (i.metadata as Record<string, string>)[clause[1]] === clause[2])
        : [];
      return ok({ object: 'search_result', data, has_more: false, next_page: null, url: '/v1/payment_intents/search' });
    }
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(r.path);
    if (r.method === 'GET' && retrieve) {
      const found = this.intents.get(retrieve[1]);
      return found
        ? ok(found)
        : {
            status: 404,
            body: {
              error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' },
            },
          };
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${r.method}: ${r.path})` } },
    };
  }
}

const ok = (body: unknown) => ({ status: 200, body });

function metadataOf(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([k]) => k.startsWith('metadata['))
      .map(([k, v]) => [k.slice(9, -1), v]),
  );
}

function intent(
  id: string,
  o: {
    amount: number;
    customer: string | null;
    payment_method: string | null;
    status: string;
    metadata: Record<string, string>;
  },
) {
  return {
    id,
    object: 'payment_intent',
    amount: o.amount,
    currency: 'usd',
    customer: o.customer,
    payment_method: o.payment_method,
    status: o.status,
    metadata: o.metadata,
    livemode: false,
    last_payment_error:
      o.status === 'requires_payment_method'
        ? { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' }
        : null,
  };
}

/** A Stripe event envelope (API `event` object) around `object`. */
export function stripeEvent(id: string, type: string, object: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** A Checkout Session as Stripe sends it in `checkout.session.*` events. */
export function checkoutSession(o: {
  id: string;
  topUpId: number;
  customer: string;
  paymentStatus: string;
  paymentIntent: string | null;
  status?: string;
}) {
  return {
    id: o.id,
    object: 'checkout.session',
    mode: 'payment',
    status: o.status ?? 'complete',
    payment_status: o.paymentStatus,
    client_reference_id: String(o.topUpId),
    customer: o.customer,
    payment_intent: o.paymentIntent,
    currency: 'usd',
    amount_total: 5000,
    metadata: { voiceplane_top_up_id: String(o.topUpId) },
    livemode: false,
  };
}

/** The `Stripe-Signature` header Stripe would send for exactly these bytes. */
export function signStripe(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
