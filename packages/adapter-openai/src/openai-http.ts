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
