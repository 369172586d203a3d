import type { Readable } from 'node:stream';
import axios from 'axios';
import {
  ChatappProvider,
  ChatappProviderRefusal,
  ChatappSipCalling,
  FreeformContent,
  ProviderAcceptance,
  ProviderMediaDownload,
  ProviderSender,
  RegisteredSender,
  SubmittedTemplate,
  SipCallingSettings,
  TemplateMessage,
  TemplateSubmission,
  WhatsappCredentials,
} from '@voiceplane/application';
import { parseTemplatePlaceholders, TemplateCategory } from '@voiceplane/domain';
import { messagingLimitOfTier, qualityRatingOf } from './number-reach';
import { templateStatusOf } from './template-status';

export interface WhatsappCloudOptions {
  /** Graph API root with its version, e.g. `https://graph.facebook.com/v21.0` (tests point it at a local stub). */
  readonly baseUrl: string;
  /** Per request (default 15 s). */
  readonly timeoutMs?: number;
}

export const DEFAULT_GRAPH_BASE_URL = 'https://graph.facebook.com/v21.0';

/** Meta's error document (`{"error":{...}}`) on any failed Graph call. */
interface GraphError {
  readonly message?: string;
  readonly code?: number;
  readonly error_data?: { readonly details?: string };
}

interface SentMessage {
  readonly messages?: readonly { readonly id?: string }[];
}

interface PhoneNumberNode {
  readonly id?: string;
  readonly display_phone_number?: string;
  readonly status?: string;
  readonly quality_rating?: string;
  readonly messaging_limit_tier?: string;
}

/** `GET /{media_id}`: where the file can be read for a few minutes. */
interface MediaNode {
  readonly url?: string;
  readonly mime_type?: string;
  readonly file_size?: number;
}

/** `GET /{phone_number_id}/settings`: the number's calling settings (the SIP password on request). */
interface CallingSettingsNode {
  readonly calling?: {
    readonly status?: string;
    readonly sip?: {
      readonly status?: string;
      readonly servers?: readonly { readonly hostname?: string; readonly sip_user_password?: string }[];
    };
  };
}

/** Our SIP server as Meta dials it: TLS only. */
const SIP_TLS_PORT = 5061;

/** A number Meta has not rated or tiered yet starts as any new number does. */
const NEW_NUMBER = { qualityRating: 'GREEN', messagingLimit: 1000 } as const;

const CATEGORIES: Readonly<Record<TemplateCategory, string>> = {
  marketing: 'MARKETING',
  utility: 'UTILITY',
  authentication: 'AUTHENTICATION',
  // Meta has no category of its own for it: a utility template carrying the call-permission component.
  voice_call_request: 'UTILITY',
};

const digitsOf = (phone: string) => phone.replace(/\D/g, '');

/**
 * The chat app on Meta's WhatsApp Cloud API (Graph API). Each sender brings its own credentials
 * (`provider_config`), so one instance serves every account. Meta's 4xx answers are refusals the
 * user may read (Meta's own message); 5xx, timeouts and network failures are outages. Neither
 * error carries the request, so the access token never reaches a log.
 */
export class WhatsappCloudProvider implements ChatappProvider, ChatappSipCalling {
  readonly name = 'whatsapp' as const;
  private readonly baseUrl: string;

  constructor(private readonly options: WhatsappCloudOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /**
   * Reads the number's node rather than calling `/register`: registration needs the number's
   * two-step PIN, which is set up in Meta's WhatsApp Manager, not here. The sender is `online`
   * only while Meta reports the number CONNECTED; later changes come through the ingress. Quality
   * and messaging limit are Meta's own (`quality_rating`, `messaging_limit_tier`).
   */
  async registerSender(sender: ProviderSender, _displayName: string): Promise<RegisteredSender> {
    const credentials = credentialsOf(sender);
    const node = await this.call<PhoneNumberNode>(
      credentials,
      'GET',
      `/${encodeURIComponent(credentials.phoneNumberId)}?fields=id,display_phone_number,verified_name,status,quality_rating,messaging_limit_tier`,
    );
    if (
      node.display_phone_number !== undefined &&
      digitsOf(node.display_phone_number) !== digitsOf(sender.phoneNumber)
    ) {
      throw new ChatappProviderRefusal(
        `The phone_number_id belongs to +${digitsOf(node.display_phone_number)}, not ${sender.phoneNumber}.`,
      );
    }
    return {
      status: node.status?.toUpperCase() === 'CONNECTED' ? 'online' : 'offline',
      providerSenderRef: credentials.phoneNumberId,
      providerAccountRef: credentials.wabaId,
      qualityRating: qualityRatingOf(node.quality_rating) ?? NEW_NUMBER.qualityRating,
      messagingLimit: (messagingLimitOfTier(node.messaging_limit_tier) ?? { value: NEW_NUMBER.messagingLimit }).value,
    };
  }

  async submitTemplate(sender: ProviderSender, template: TemplateSubmission): Promise<SubmittedTemplate> {
    const credentials = credentialsOf(sender);
    const placeholders = parseTemplatePlaceholders(template.bodyText);
    const variables = placeholders.ok ? placeholders.value.variables : [];
    const named = placeholders.ok && placeholders.value.style === 'named';
    // Meta reviews a template with variables only when each comes with an example value.
    const example =
      variables.length === 0
        ? undefined
        : named
          ? { body_text_named_params: variables.map((name) => ({ param_name: name, example: `example_${name}` })) }
          : { body_text: [variables.map((name) => `example_${name}`)] };
    const components: object[] = [{ type: 'BODY', text: template.bodyText, ...(example ? { example } : {}) }];
    if (template.footerText) components.push({ type: 'FOOTER', text: template.footerText });
    if (template.category === 'voice_call_request') components.push({ type: 'call_permission_request' });
    const created = await this.call<{ id?: string; status?: string }>(
      credentials,
      'POST',
      `/${encodeURIComponent(credentials.wabaId)}/message_templates`,
      {
        name: template.name,
        language: template.language,
        category: CATEGORIES[template.category],
        parameter_format: named ? 'NAMED' : 'POSITIONAL',
        components,
      },
    );
    return {
      status: templateStatusOf(created.status ?? 'PENDING') ?? 'pending',
      providerTemplateRef: created.id ?? null,
    };
  }

  async sendTemplate(sender: ProviderSender, to: string, template: TemplateMessage): Promise<ProviderAcceptance> {
    // Positional placeholders are named "1", "2", …; Meta wants those without a name and named ones with it.
    const parameters = template.parameters.map(({ name, value }) =>
      /^\d+$/.test(name) ? { type: 'text', text: value } : { type: 'text', parameter_name: name, text: value },
    );
    return this.send(sender, to, {
      type: 'template',
      template: {
        name: template.name,
        language: { code: template.language },
        ...(parameters.length > 0 ? { components: [{ type: 'body', parameters }] } : {}),
      },
    });
  }

  async sendFreeform(sender: ProviderSender, to: string, content: FreeformContent): Promise<ProviderAcceptance> {
    if (content.kind === 'text')
      return this.send(sender, to, { type: 'text', text: { preview_url: false, body: content.text } });
    const media: Record<string, string> = { link: content.url };
    // The chat app shows no caption on audio and a file name only on documents.
    if (content.caption !== null && content.mediaType !== 'audio') media.caption = content.caption;
    if (content.filename !== null && content.mediaType === 'document') media.filename = content.filename;
    return this.send(sender, to, { type: content.mediaType, [content.mediaType]: media });
  }

  /**
   * The Cloud API has no lookup of one sent message: what became of it arrives only as status
   * notifications, by Meta's message id, which a send that died before storing it never learnt.
   */
  async findSend(): Promise<'unknown'> {
    return 'unknown';
  }

  /**
   * `GET /{media_id}` names a short-lived URL, its type and size; the file itself is streamed from
   * that URL with the same token, capped at `maxBytes` (checked on the announced size, then while
   * the body is read). The timeout covers the whole download, body included.
   */
  async downloadMedia(
    sender: ProviderSender,
    providerMediaId: string,
    maxBytes: number,
  ): Promise<ProviderMediaDownload> {
    const credentials = credentialsOf(sender);
    const node = await this.call<MediaNode>(credentials, 'GET', `/${encodeURIComponent(providerMediaId)}`);
    if (typeof node.url !== 'string' || !/^https?:\/\//.test(node.url))
      throw new Error('WhatsApp Cloud API named no download URL for the media');
    if (typeof node.file_size === 'number' && node.file_size > maxBytes) throw new ChatappProviderRefusal(TOO_LARGE);
    let response;
    try {
      response = await axios.request<Readable>({
        method: 'GET',
        url: node.url,
        headers: { Authorization: `Bearer ${credentials.accessToken}` },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
        maxRedirects: 0,
        responseType: 'stream',
        validateStatus: () => true,
      });
    } catch (e) {
      throw new Error(`WhatsApp media download ${failureOf(e)}`);
    }
    if (response.status < 200 || response.status > 299) {
      response.data.destroy();
      throw new Error(`WhatsApp media download answered ${response.status}`);
    }
    const length = Number(response.headers['content-length']);
    if (Number.isSafeInteger(length) && length > maxBytes) {
      response.data.destroy();
      throw new ChatappProviderRefusal(TOO_LARGE);
    }
    const header = response.headers['content-type'];
    return {
      body: cappedStream(response.data, maxBytes),
      contentType: typeof header === 'string' ? header : (node.mime_type ?? null),
    };
  }

  /**
   * `POST /{phone_number_id}/settings`: calling on, SIP signalling to our server (Graph call actions
   * and Graph calling webhooks stop for the number), SRTP keys by SDES, which LiveKit's SIP speaks.
   */
  async enableSipCalling(sender: ProviderSender, sipServerHost: string): Promise<void> {
    const credentials = credentialsOf(sender);
    await this.call(credentials, 'POST', `/${encodeURIComponent(credentials.phoneNumberId)}/settings`, {
      calling: {
        status: 'ENABLED',
        srtp_key_exchange_protocol: 'SDES',
        sip: { status: 'ENABLED', servers: [{ hostname: sipServerHost, port: SIP_TLS_PORT }] },
      },
    });
  }

  /** `GET /{phone_number_id}/settings?include_sip_credentials=true`: is calling on, and the number's SIP password. */
  async readSipCalling(sender: ProviderSender): Promise<SipCallingSettings> {
    const credentials = credentialsOf(sender);
    const node = await this.call<CallingSettingsNode>(
      credentials,
      'GET',
      `/${encodeURIComponent(credentials.phoneNumberId)}/settings?include_sip_credentials=true`,
    );
    const calling = node.calling;
    const password =
      calling?.sip?.servers?.find((s) => typeof s.sip_user_password === 'string' && s.sip_user_password !== '')
        ?.sip_user_password ?? null;
    if (calling?.status !== 'ENABLED')
      return { enabled: false, sipPassword: null, reason: 'calling is not enabled on the WhatsApp number' };
    if (calling.sip?.status !== 'ENABLED')
      return { enabled: false, sipPassword: null, reason: 'SIP calling is not enabled on the WhatsApp number' };
    if (password === null)
      return { enabled: false, sipPassword: null, reason: 'WhatsApp issued no SIP password for the number' };
    return { enabled: true, sipPassword: password, reason: null };
  }

  private async send(
    sender: ProviderSender,
    to: string,
    message: Record<string, unknown>,
  ): Promise<ProviderAcceptance> {
    const credentials = credentialsOf(sender);
    const sent = await this.call<SentMessage>(
      credentials,
      'POST',
      `/${encodeURIComponent(credentials.phoneNumberId)}/messages`,
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: digitsOf(to),
        ...message,
      },
    );
    const id = sent.messages?.[0]?.id;
    if (!id) throw new Error('WhatsApp Cloud API accepted the message without a message id');
    // Accepted is not yet sent: `sent` arrives as a status notification through the ingress.
    return { providerMessageId: id, status: 'queued' };
  }

  private async call<T>(
    credentials: WhatsappCredentials,
    method: 'GET' | 'POST',
    path: string,
    body?: object,
  ): Promise<T> {
    let response;
    try {
      // Every status comes back as a response and the body as text: errors are read from Meta's own
      // error document, and a redirect is an answer to refuse rather than one to follow.
      response = await axios.request<string>({
        method,
        url: `${this.baseUrl}${path}`,
        headers: {
          Authorization: `Bearer ${credentials.accessToken}`,
          Accept: 'application/json',
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        data: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
        maxRedirects: 0,
        responseType: 'text',
        transformResponse: (data: string) => data,
        validateStatus: () => true,
      });
    } catch (e) {
      // axios errors carry the request config, Authorization header included: only the reason leaves.
      const reason =
        axios.isAxiosError(e) && (e.code === 'ERR_CANCELED' || e.name === 'CanceledError')
          ? 'timed out'
          : 'could not be reached';
      throw new Error(`WhatsApp Cloud API ${reason}`);
    }
    const parsed = parseJson(response.data);
    if (response.status >= 200 && response.status <= 299) return (parsed ?? {}) as T;
    const error = (parsed as { error?: GraphError } | null)?.error;
    if (response.status >= 400 && response.status <= 499 && error?.message)
      throw new ChatappProviderRefusal(error.message);
    throw new Error(`WhatsApp Cloud API answered ${response.status}${error?.message ? `: ${error.message}` : ''}`);
  }
}

const TOO_LARGE = 'the file is larger than 16 MB';

function failureOf(e: unknown): string {
  const canceled =
    (axios.isAxiosError(e) && e.code === 'ERR_CANCELED') ||
    (e instanceof Error && (e.name === 'CanceledError' || e.name === 'AbortError' || e.name === 'TimeoutError'));
  return canceled ? 'timed out' : 'could not be reached';
}

/** The body chunk by chunk; past `maxBytes` the download stops and is refused. */
async function* cappedStream(body: Readable, maxBytes: number): AsyncIterable<Uint8Array> {
  let seen = 0;
  try {
    for await (const chunk of body) {
      seen += (chunk as Buffer).byteLength;
      if (seen > maxBytes) throw new ChatappProviderRefusal(TOO_LARGE);
      yield chunk as Buffer;
    }
  } catch (e) {
    if (e instanceof ChatappProviderRefusal) throw e;
    throw new Error(`WhatsApp media download ${failureOf(e)}`);
  } finally {
    body.destroy();
  }
}

function credentialsOf(sender: ProviderSender): WhatsappCredentials {
  if (sender.credentials === null)
    throw new ChatappProviderRefusal(
      'The sender has no WhatsApp credentials (phone_number_id, waba_id, access_token).',
    );
  return sender.credentials;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
