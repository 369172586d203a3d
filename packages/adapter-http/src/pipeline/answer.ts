/** What the client receives for one refusal. */
export interface Answer {
  readonly status: number;
  readonly body: object;
  readonly headers?: Readonly<Record<string, string>>;
}
