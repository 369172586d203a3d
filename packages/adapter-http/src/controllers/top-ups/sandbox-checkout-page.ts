import type { Request } from 'express';
import { HttpResponse, isHttpResponseSymbol } from '@inversifyjs/http-core';
import type { TopUp } from '@voiceplane/domain';
import { fullPath } from '../../pipeline/request-context';

/** Where the sandbox's checkout pages live; the one-time token is the last segment. */
export const CHECKOUT_PAGE_PATH = '/api/sandbox/billing/checkout';

/** The checkout page is opened in a browser with no Bearer token, and posts a form. */
export const isCheckoutPage = (req: Request): boolean => {
  // In any case, as the router matches it.
  const path = fullPath(req).toLowerCase();
  return path === CHECKOUT_PAGE_PATH || path.startsWith(`${CHECKOUT_PAGE_PATH}/`);
};

/** The only HTML the product serves: nothing loads from elsewhere, the form posts back here, no frame may hold it. */
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Robots-Tag': 'noindex',
};

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:420px;margin:64px auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:32px}
.badge{display:inline-block;font-size:12px;letter-spacing:.04em;text-transform:uppercase;background:#fff4d6;color:#8a5a00;border-radius:4px;padding:2px 8px}
h1{font-size:20px;margin:16px 0 4px}
.amount{font-size:40px;font-weight:600;margin:16px 0 4px}
.muted{color:#5b6475;font-size:14px}
form{display:flex;gap:12px;margin-top:28px}
button{flex:1;font-size:16px;padding:12px;border-radius:8px;border:1px solid #c9ced8;background:#fff;cursor:pointer}
button.pay{background:#1f6feb;border-color:#1f6feb;color:#fff;font-weight:600}
.result{font-size:18px;font-weight:600;margin-top:20px}
.succeeded{color:#1a7f37}.failed,.expired{color:#b42318}
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (t: TopUp) => `$${t.amount.toFixed(2)}`;

function page(status: number, title: string, body: string): HttpResponse {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)} · voiceplane sandbox</title><style>${STYLE}</style></head>` +
    `<body><main><span class="badge">Sandbox checkout</span>${body}</main></body></html>`;
  return { [isHttpResponseSymbol]: true, statusCode: status, body: html, headers: PAGE_HEADERS };
}

/** A pending top-up: its amount and the two choices a payer has. */
export function payPage(t: TopUp): HttpResponse {
  return page(
    200,
    'Pay',
    `<h1>Top-up #${t.id}</h1><div class="amount">${money(t)}</div>` +
      `<div class="muted">${escapeHtml(t.currency)} · credited to the voiceplane balance when paid. No card is charged in the sandbox.</div>` +
      `<form method="post"><button class="pay" type="submit" name="choice" value="pay">Pay ${money(t)}</button>` +
      `<button type="submit" name="choice" value="decline">Decline</button></form>`,
  );
}

const OUTCOMES: Record<Exclude<TopUp['status'], 'pending'>, (t: TopUp) => string> = {
  succeeded: (t) => `Payment succeeded: ${money(t)} was added to the balance.`,
  failed: () => 'Payment declined: nothing was charged and the balance is unchanged.',
  expired: () => 'This checkout expired: nothing was charged.',
};

/** A settled top-up: what came of it. `note` says why the payer sees this instead of the choices. */
export function resultPage(t: TopUp, status = 200, note?: string): HttpResponse {
  const settled = t.status === 'pending' ? 'expired' : t.status;
  const when = t.completedAt ? `<div class="muted">Settled ${escapeHtml(t.completedAt.toISOString())}</div>` : '';
  return page(
    status,
    'Result',
    `<h1>Top-up #${t.id}</h1><div class="amount">${money(t)}</div>` +
      `<div class="result ${settled}">${escapeHtml(OUTCOMES[settled](t))}</div>${when}` +
      (note ? `<p class="muted">${escapeHtml(note)}</p>` : ''),
  );
}

/** A token that opens nothing (mistyped, cut short, or the address without its token). */
export function unknownLinkPage(): HttpResponse {
  return page(
    404,
    'Unknown link',
    '<h1>This checkout link is not valid</h1>' +
      '<p class="muted">The link may be incomplete. The payment link, with its one-time token, is shown once: in the answer ' +
      'that created the top-up. A top-up can also be settled through the sandbox API.</p>',
  );
}

export function invalidChoicePage(): HttpResponse {
  return page(
    422,
    'Choose',
    '<h1>Choose Pay or Decline</h1><p class="muted">Go back and press one of the two buttons.</p>',
  );
}
