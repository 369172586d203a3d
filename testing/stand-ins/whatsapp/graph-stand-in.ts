import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Meta's Graph API on 127.0.0.1, as the WhatsApp Cloud adapter uses it: phone-number
 * nodes, message sends (recorded), media nodes and the media files behind them (bytes), the
 * numbers' calling settings (SIP on request, with the SIP password Meta issues). Every
 * request must carry the number's token; others answer Meta's OAuth error.
 */

export interface GraphNumber {
  readonly phoneNumberId: string;
  readonly displayPhoneNumber: string;
  readonly status: string;
  readonly qualityRating: string;
  readonly messagingLimitTier: string;
}

export interface GraphRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

export class GraphStandIn {
  readonly requests: GraphRequest[] = [];
  private readonly numbers = new Map<string, GraphNumber>();
  private readonly media = new Map<string, { bytes: Buffer; mimeType: string }>();
  private readonly calling = new Map<
    string,
    { allowed: boolean; sipPassword: string; settings: Record<string, unknown> | null }
  >();
  private sent = 0;
  private slow: { delayMs: number; probe: () => Promise<void> } | null = null;
  private sendsInFlight = 0;
  /** The most message sends this stand-in was answering at once (slowed sends only). */
  maxSendsInFlight = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    private readonly token: string,
  ) {}

  static async start(token: string): Promise<GraphStandIn> {
    let standIn: GraphStandIn | undefined;
    const server = createServer((req, res) => void (standIn as GraphStandIn).handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new GraphStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token);
    return standIn;
  }

  /** The Graph root with its version, as WHATSAPP_GRAPH_BASE_URL. */
  get baseUrl(): string {
    return `${this.origin}/v21.0`;
  }

  addNumber(number: GraphNumber): void {
    this.numbers.set(number.phoneNumberId, number);
  }

  removeNumber(phoneNumberId: string): void {
    this.numbers.delete(phoneNumberId);
  }

  /** Whether Meta lets the number call, and the SIP password it issues once SIP is on; numbers not named here cannot call. */
  allowCalling(phoneNumberId: string, sipPassword: string): void {
    this.calling.set(phoneNumberId, { allowed: true, sipPassword, settings: null });
  }

  addMedia(id: string, bytes: Buffer, mimeType: string): void {
    this.media.set(id, { bytes, mimeType });
  }

  /** Message sends take `delayMs` (Meta takes 100–500 ms), then run `probe` — a test's look at the app meanwhile — before answering. */
  slowSends(delayMs: number, probe: () => Promise<void> = async () => undefined): void {
    this.slow = { delayMs, probe };
  }

  /** The message sends received, as Meta's request bodies. */
  messages(): Record<string, unknown>[] {
    return this.requests
      .filter((r) => r.method === 'POST' && r.path.endsWith('/messages'))
      .map((r) => JSON.parse(r.body));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? '/';
    this.requests.push({
      method: req.method ?? 'GET',
      path,
      authorization: req.headers.authorization,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return json(401, {
        error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190 },
      });
    }
    if (req.method === 'POST' && /^\/v21\.0\/[^/?]+\/message_templates$/.test(path)) {
      // A template submitted under a business account: Meta queues every new one for review.
      const template = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { category?: string };
      return json(200, {
        id: `9${String(this.requests.length).padStart(14, '0')}`,
        status: 'PENDING',
        category: template.category,
      });
    }
    const file = /^\/files\/([^/?]+)$/.exec(path);
    if (file && this.media.has(file[1])) {
      const m = this.media.get(file[1])!;
      res.writeHead(200, { 'Content-Type': m.mimeType, 'Content-Length': m.bytes.length });
      return void res.end(m.bytes);
    }
    const [, id, rest] = /^\/v21\.0\/([^/?]+)(.*)$/.exec(path) ?? [];
    const number = id === undefined ? undefined : this.numbers.get(id);
    if (number && req.method === 'GET' && rest.startsWith('?fields=')) {
      return json(200, {
        id: number.phoneNumberId,
        display_phone_number: number.displayPhoneNumber,
        verified_name: 'Acme Support',
        status: number.status,
        quality_rating: number.qualityRating,
        messaging_limit_tier: number.messagingLimitTier,
      });
    }
    if (number && req.method === 'POST' && rest === '/messages') {
      if (this.slow) {
        this.maxSendsInFlight = Math.max(this.maxSendsInFlight, ++this.sendsInFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, this.slow!.delayMs));
          await this.slow.probe();
        } finally {
          this.sendsInFlight -= 1;
        }
      }
      const to = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string }).to;
      return json(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: `wamid.OUT${++this.sent}` }],
      });
    }
    if (number && rest.startsWith('/settings'))
      return this.settings(
        number.phoneNumberId,
        req.method ?? 'GET',
        rest,
        Buffer.concat(chunks).toString('utf8'),
        json,
      );
    const media = id === undefined ? undefined : this.media.get(id);
    if (media && req.method === 'GET' && rest === '') {
      return json(200, {
        messaging_product: 'whatsapp',
        url: `${this.origin}/files/${id}`,
        mime_type: media.mimeType,
        file_size: media.bytes.length,
        id,
      });
    }
    json(404, {
      error: {
        message: `Unsupported request - method type: ${req.method?.toLowerCase()}`,
        type: 'GraphMethodException',
        code: 100,
      },
    });
  }

  /** `POST /{id}/settings` turns calling on where the number may call; `GET` answers them, the SIP password only on request. */
  private settings(
    id: string,
    method: string,
    rest: string,
    body: string,
    json: (status: number, body: unknown) => void,
  ): void {
    const state = this.calling.get(id);
    if (method === 'POST') {
      if (!state?.allowed)
        return json(400, {
          error: {
            message: '(#138018) Calling is not available for this business phone number',
            type: 'OAuthException',
            code: 138018,
          },
        });
      state.settings = (JSON.parse(body) as { calling: Record<string, unknown> }).calling;
      return json(200, { success: true });
    }
    if (!state?.settings) return json(200, { calling: { status: 'DISABLED' } });
    const sip = state.settings.sip as { status: string; servers: Record<string, unknown>[] };
    const withPassword = rest.includes('include_sip_credentials=true');
    return json(200, {
      calling: {
        ...state.settings,
        sip: {
          ...sip,
          servers: sip.servers.map((s) => (withPassword ? { ...s, sip_user_password: state.sipPassword } : s)),
        },
      },
    });
  }
}
