import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import type { Request } from 'express';
import { routesOf } from '@voiceplane/adapter-http';

/**
 * The success examples of the OpenAPI document, kept honest by the HTTP suites: every 2xx answer of a documented
 * operation (at its documented success status) that a suite's test api gives is observed. With
 * RECORD_OPENAPI_EXAMPLES=1 an operation without an example, whose example no longer fits, or that an answer shows
 * more of, gets the fullest answer observed written to success-examples.json; otherwise the suite fails when a
 * recorded example no longer has the shape of what it observed.
 */

function repositoryRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
  throw new Error('repository root not found');
}

const OPENAPI_DIR = join(repositoryRoot(__dirname), 'packages', 'adapter-http', 'src', 'openapi');
export const RECORDED_FILE = join(OPENAPI_DIR, 'success-examples.json');

type Examples = Record<string, Record<string, unknown>>;

/**
 * Objects keyed by the user's own names (a data table row's `values` by its columns, a call's `metadata`, an
 * assistant's `variables`) or by what happened (an analytics day's `by_status`) or carrying another document (a webhook delivery's event `payload`, different for each
 * event type): an example is held to their being objects, not to the keys one suite happened to meet.
 */
const OPAQUE = new Set(['values', 'metadata', 'variables', 'extracted_variables', 'payload', 'by_status']);

/**
 * Where an operation answers variants that one suite may not all see, while the example shows one of them: there
 * the example is held to the types of the keys it shares with the answers, not to having the same keys. Paths are
 * written with `[]` for any array item.
 */
export const VARIANTS: Readonly<Record<string, readonly string[]>> = {
  // What the template's test run answered: a table row, a CRM's reply, a message sent, by template.
  'POST /api/user/automate/templates/{key}': ['$.response'],
  // The trigger and the sample input of each template are its own.
  'GET /api/user/automate/templates/{key}': ['$.data.trigger', '$.data.sample_input'],
  // One run (`run_id`) or the latest runs; a step's attempts only once it was retried.
  'GET /api/user/automate/flows/{id}/runs': ['$'],
  // An automation's params and definition are its template's own.
  'GET /api/user/automate/flows': ['$.data[].params'],
  'GET /api/user/automate/flows/{id}': ['$.data.params'],
  'POST /api/user/automate/flows/{id}/enable': ['$.data.params'],
  'POST /api/user/automate/flows/{id}/disable': ['$.data.params'],
  'PUT /api/user/automate/flows/{id}': ['$.response'],
  'GET /api/user/automate/flows/{id}/versions': ['$.data[].params', '$.data[].definition'],
  // A tool call by its kind: an HTTP tool's request and answer, a knowledge search's query and passages (calls and chats alike).
  'GET /api/user/calls/{id}': ['$.data.tool_calls[]'],
  'GET /api/user/conversations/{uuid}': ['$.data.tool_calls[]'],
  // `ai_reply_skipped` only when the AI did not answer the message.
  'POST /api/sandbox/chatapp/inbound-message': ['$'],
  // `media_error` only on a media message.
  'GET /api/user/conversations/{uuid}/messages': ['$.data[]'],
  // A fault's target is a numeric id or a provider's string id, by kind.
  'POST /api/sandbox/faults': ['$.fault.target_id'],
};

const variantPath = (at: string): string => at.replace(/\[\d+\]/g, '[]');

const withinVariant = (at: string, variants: readonly string[]): boolean => {
  const path = variantPath(at);
  return variants.some((v) => path === v || path.startsWith(`${v}.`) || path.startsWith(`${v}[`));
};

/**
 * A success answer that is not JSON (a recording, a customer's file, a challenge echoed as text) is shown by its
 * content type: its bytes say nothing a reader of the document could use, and differ from one test to the next.
 */
export const notJson = (contentType: string): string => `<${contentType.split(';')[0].trim()}, not JSON>`;

const isJson = (contentType: string): boolean => /[/+]json\s*(;|$)/i.test(contentType);

const readExamples = (file: string): Examples => JSON.parse(readFileSync(file, 'utf8'));

function writeExamples(file: string, examples: Examples): void {
  const sorted = Object.fromEntries(
    Object.keys(examples)
      .sort()
      .map((key) => [key, examples[key]]),
  );
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
}

/** Express path of a route (`/api/user/tools/:id/`) as the document spells it (`/api/user/tools/{id}`). */
export function documentPath(routePath: string): string {
  return `/${routePath
    .split('/')
    .filter((segment) => segment.length > 0)
    .join('/')}`.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** Test servers listen on ephemeral ports; an example shows the api's default address. */
const withExampleAddresses = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:3000'));

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Where `example` differs in shape (keys and JSON types, recursively) from the answers observed: a key no answer
 * has, a key every answer has that the example lacks, or a type no answer has there. Answers of one operation
 * may differ among themselves (optional keys, variants), so the example is held to what they have in common and
 * to nothing none of them has; `null` and empty arrays say nothing about a shape.
 */
export function shapeMismatches(
  example: unknown,
  observed: readonly unknown[],
  at = '$',
  variants: readonly string[] = [],
): string[] {
  const answers = observed.filter((value) => value !== null && value !== undefined);
  if (example === null || answers.length === 0) return [];
  const variant = withinVariant(at, variants);
  const kinds = new Set(answers.map(kindOf));
  // A listed path may change type by variant; below it, keys shared with the answers keep theirs.
  if (!kinds.has(kindOf(example)))
    return variants.includes(variantPath(at))
      ? []
      : [`${at}: ${kindOf(example)} in the example, ${[...kinds].join(' or ')} in the answers`];
  if (Array.isArray(example)) {
    const items = answers.filter(Array.isArray).flat();
    return items.length === 0
      ? []
      : example.flatMap((item, i) => shapeMismatches(item, items, `${at}[${i}]`, variants));
  }
  if (kindOf(example) !== 'object' || OPAQUE.has(at.slice(at.lastIndexOf('.') + 1))) return [];
  const objects = answers.filter((value): value is Record<string, unknown> => kindOf(value) === 'object');
  const keys = Object.keys(example as object);
  const mismatches: string[] = [];
  if (!variant) {
    mismatches.push(
      ...keys
        .filter((key) => !objects.some((o) => key in o))
        .map((key) => `${at}.${key}: in the example, in no answer`),
    );
    const common = Object.keys(objects[0]).filter((key) => objects.every((o) => key in o));
    mismatches.push(
      ...common.filter((key) => !keys.includes(key)).map((key) => `${at}.${key}: in every answer, not in the example`),
    );
  }
  for (const key of keys) {
    const values = objects.filter((o) => key in o).map((o) => o[key]);
    if (values.length > 0)
      mismatches.push(...shapeMismatches((example as Record<string, unknown>)[key], values, `${at}.${key}`, variants));
  }
  return mismatches;
}

/**
 * What an answer shows of its operation's shape: its key paths with their JSON types, arrays' items merged, `null`
 * and the insides of opaque objects left out. A suite's first answer is often an empty list or a bare variant.
 */
export function shapeOf(value: unknown, at = '$', into = new Set<string>()): Set<string> {
  if (value === null || value === undefined) return into;
  into.add(`${at}:${kindOf(value)}`);
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${at}[]`, into);
  else if (kindOf(value) === 'object' && !OPAQUE.has(at.slice(at.lastIndexOf('.') + 1))) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) shapeOf(child, `${at}.${key}`, into);
  }
  return into;
}

/** The answer that shows the most of the shape; the first of those that show as much. */
export function fullestOf(bodies: readonly unknown[]): unknown {
  return bodies.reduce((best, body) => (shapeOf(body).size > shapeOf(best).size ? body : best));
}

/** Watches one test api's answers; `finish` records them or checks the recorded examples against them. */
export class SuccessExampleObserver {
  /** Raw until `finish`: the suite's requests run undisturbed by parsing. */
  private readonly sent: { method: string; routePath: string; status: number; contentType: string; body: Buffer }[] =
    [];
  private readonly answers = new Map<string, Map<string, unknown[]>>();

  constructor(private readonly container: Parameters<typeof routesOf>[0]) {}

  /**
   * The app itself, seen through `observe`: called as a listener (supertest, `createServer(app)`, `app.listen`) it
   * is observed; everything else (`app.listen`, `app.router`) is the app's own.
   */
  observedApp<App extends (req: IncomingMessage, res: ServerResponse) => void>(app: App): App {
    const observed = this.observe(app);
    return new Proxy(app, {
      apply: (_target, _this, [req, res]: [IncomingMessage, ServerResponse]) => observed(req, res),
    });
  }

  /** The app behind a request listener that sees each answer as it is sent. */
  observe(
    app: (req: IncomingMessage, res: ServerResponse) => void,
  ): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const chunks: Buffer[] = [];
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      (res as { end: (...args: unknown[]) => ServerResponse }).end = (...args: unknown[]) => {
        const [chunk, encoding] = args;
        if (typeof chunk === 'string')
          chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
        else if (Buffer.isBuffer(chunk)) chunks.push(chunk);
        return end(...args);
      };
      res.on('finish', () => {
        const { route } = req as Request;
        if (res.statusCode < 200 || res.statusCode > 299 || !route?.path) return;
        const contentType = String(res.getHeader('content-type') ?? '');
        if (contentType === '') return;
        this.sent.push({
          method: req.method ?? '',
          routePath: String(route.path),
          status: res.statusCode,
          contentType,
          body: Buffer.concat(chunks),
        });
      });
      app(req, res);
    };
  }

  /** The answers sent at their operation's documented success status, by operation and status. */
  private collect(): void {
    if (this.sent.length === 0) return;
    const successStatus = new Map(
      routesOf(this.container).map((r) => [`${r.method.toUpperCase()} ${documentPath(r.path)}`, r.success ?? 200]),
    );
    for (const { method, routePath, status, contentType, body } of this.sent.splice(0)) {
      const operation = `${method} ${documentPath(routePath)}`;
      if (successStatus.get(operation) !== status) continue;
      let parsed: unknown = notJson(contentType);
      if (isJson(contentType)) {
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          continue;
        }
      }
      const byStatus = this.answers.get(operation) ?? new Map<string, unknown[]>();
      this.answers.set(operation, byStatus);
      byStatus.set(String(status), [...(byStatus.get(String(status)) ?? []), parsed]);
    }
  }

  /** Records (RECORD_OPENAPI_EXAMPLES=1) or answers the recorded examples that no longer fit what was observed. */
  finish(record = process.env.RECORD_OPENAPI_EXAMPLES === '1'): string[] {
    this.collect();
    if (this.answers.size === 0) return [];
    if (record) {
      const recorded = readExamples(RECORDED_FILE);
      for (const [operation, byStatus] of this.answers) {
        for (const [status, bodies] of byStatus) {
          // An example that fits and shows as much stays: re-recording rewrites what changed, not every id and time.
          const kept = recorded[operation]?.[status];
          const fullest = fullestOf(bodies);
          if (
            kept === undefined ||
            shapeMismatches(kept, bodies, '$', VARIANTS[operation]).length > 0 ||
            shapeOf(fullest).size > shapeOf(kept).size
          ) {
            recorded[operation] = { ...recorded[operation], [status]: withExampleAddresses(fullest) };
          }
        }
      }
      writeExamples(RECORDED_FILE, recorded);
      return [];
    }
    const recorded = readExamples(RECORDED_FILE);
    return [...this.answers].flatMap(([operation, byStatus]) =>
      [...byStatus].flatMap(([status, bodies]) => {
        const example = recorded[operation]?.[status];
        return example === undefined
          ? []
          : shapeMismatches(example, bodies, '$', VARIANTS[operation]).map((m) => `${operation} ${status} ${m}`);
      }),
    );
  }
}
