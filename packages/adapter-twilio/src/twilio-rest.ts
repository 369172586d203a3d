import axios from 'axios';

export interface TwilioOptions {
  readonly accountSid: string;
  readonly authToken: string;
  /** `https://api.twilio.com` (tests point it at a local stub). */
  readonly baseUrl: string;
  /** Per request (default 10 s). */
  readonly timeoutMs?: number;
}

export class TwilioError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'TwilioError';
  }
}

/** HTTP Basic with the account SID and auth token, as every Twilio REST call. */
export function basicAuthorization(o: TwilioOptions): string {
  return `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}`;
}

/** One call of Twilio's 2010-04-01 REST API; a non-2xx answer is thrown as `TwilioError` with Twilio's own code. */
export async function twilioRequest<T = unknown>(
  authorization: string,
  timeoutMs: number | undefined,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  form?: URLSearchParams,
): Promise<T> {
  // Every status comes back as a response and the body as text: errors are read from Twilio's own
  // error document below, and a redirect is an answer to refuse rather than one to follow.
  const response = await axios.request<string>({
    method,
    url,
    headers: {
      Authorization: authorization,
      Accept: 'application/json',
      ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
    },
    data: form?.toString(),
    signal: AbortSignal.timeout(timeoutMs ?? 10_000),
    maxRedirects: 0,
    responseType: 'text',
    transformResponse: (data: string) => data,
    validateStatus: () => true,
  });
  const text = response.data;
  if (response.status < 200 || response.status > 299) {
    let code: number | null = null;
    let message = `Twilio answered ${response.status}`;
    try {
      const parsed = JSON.parse(text) as { code?: number; message?: string };
      code = typeof parsed.code === 'number' ? parsed.code : null;
      if (parsed.message) message = `${message}: ${parsed.message}`;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new TwilioError(response.status, code, message);
  }
  return (text ? JSON.parse(text) : {}) as T;
}
