import axios, { AxiosInstance } from 'axios';

/**
 * The HTTP client both OpenAI-compatible adapters speak through. Every status comes back as a
 * response with its body as text: the API's error document is read by the caller, and a redirect
 * (a misconfigured base URL) is an answer, not a hop that carries the key elsewhere.
 */
export function openAiHttp(baseUrl: string, apiKey: string, timeoutMs: number): AxiosInstance {
  return axios.create({
    baseURL: `${baseUrl.replace(/\/+$/, '')}/`,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    timeout: timeoutMs,
    maxRedirects: 0,
    responseType: 'text',
    transformResponse: (data: string) => data,
    validateStatus: () => true,
  });
}

/**
 * One POST of a JSON payload; the parsed answer of a 2xx. Every failure throws `fail(reason)`, where
 * the reason starts with `who` ("The reply generator …") and carries the status and the API's own
 * error message, never the request: axios errors carry the request config, API key included.
 */
export async function postJson(
  http: AxiosInstance,
  path: string,
  payload: object,
  who: string,
  fail: (reason: string) => Error,
): Promise<unknown> {
  const response = await http.post<string>(path, JSON.stringify(payload)).catch((e: unknown) => {
    throw fail(`${who} ${axios.isAxiosError(e) && e.code === 'ECONNABORTED' ? 'timed out' : 'could not be reached'}`);
  });
  let body: unknown = null;
  try {
    body = response.data ? JSON.parse(response.data) : null;
  } catch {
    // Not JSON: the status says enough, or what the caller reads is missing.
  }
  if (response.status < 200 || response.status > 299) {
    const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
    throw fail(`${who} answered ${response.status}${typeof message === 'string' ? `: ${message}` : ''}`);
  }
  return body;
}
