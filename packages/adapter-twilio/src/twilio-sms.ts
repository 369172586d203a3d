import { createHmac, timingSafeEqual } from 'node:crypto';
import { OutboundSms, SmsProvider, SmsProviderRefusal, SmsStatusGate, SmsStatusReport } from '@voiceplane/application';
import { smsStatusOf } from '@voiceplane/domain';
import { basicAuthorization, TwilioError, TwilioOptions, twilioRequest } from './twilio-rest';

/** Where Twilio reports a message's status; `ref` is voiceplane's message id. */
export const TWILIO_SMS_STATUS_PATH = '/api/providers/sms/twilio/status';

export interface TwilioSmsOptions extends TwilioOptions {
  /** voiceplane's public origin (`PUBLIC_BASE_URL`): the status callback is built on it and signed by Twilio over it. */
  readonly publicBaseUrl: string;
}

/**
 * SMS through Twilio's Messages API (2010-04-01): one form POST per message, with a status
 * callback naming voiceplane's message id so the delivery reports find it even before the send
 * is settled. A 4xx is Twilio refusing this message (its code and text are kept); a 5xx is
 * Twilio being unavailable; no answer at all is left to the caller (it cannot know).
 */
export class TwilioSmsProvider implements SmsProvider {
  readonly name = 'twilio' as const;
  private readonly messagesUrl: string;
  private readonly authorization: string;

  constructor(private readonly options: TwilioSmsOptions) {
    this.messagesUrl = `${options.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
    this.authorization = basicAuthorization(options);
  }

  /** The callback URL of a message, exactly as Twilio will sign it. */
  statusCallbackOf(reference: number): string {
    return `${this.options.publicBaseUrl.replace(/\/+$/, '')}${TWILIO_SMS_STATUS_PATH}?ref=${reference}`;
  }

  async send(m: OutboundSms): Promise<{ providerMessageId: string }> {
    const form = new URLSearchParams({
      To: m.to,
      From: m.from,
      Body: m.body,
      StatusCallback: this.statusCallbackOf(m.reference),
    });
    try {
      const created = await twilioRequest<{ sid?: string }>(
        this.authorization,
        this.options.timeoutMs,
        'POST',
        this.messagesUrl,
        form,
      );
      if (typeof created.sid !== 'string' || created.sid === '')
        throw new SmsProviderRefusal('Twilio answered without a message sid.');
      return { providerMessageId: created.sid };
    } catch (e) {
      if (!(e instanceof TwilioError)) throw e;
      if (e.status >= 500) throw new SmsProviderRefusal('Twilio service temporarily unavailable');
      throw new SmsProviderRefusal(
        `Twilio refused the message${e.code === null ? '' : ` (error ${e.code})`}: ${twilioText(e)}`,
      );
    }
  }
}

/** Twilio's own sentence, without our "Twilio answered 400:" prefix. */
function twilioText(e: TwilioError): string {
  return e.message.replace(/^Twilio answered \d+: ?/, '') || `HTTP ${e.status}`;
}

/**
 * Twilio's request signature: HMAC-SHA1 with the auth token over the full URL Twilio requested
 * followed by every POST parameter, sorted by name, as name then value; base64.
 */
export function twilioSignature(authToken: string, url: string, form: Readonly<Record<string, string>>): string {
  const data = Object.keys(form)
    .sort()
    .reduce((acc, key) => acc + key + form[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf-8')).digest('base64');
}

/** Twilio's status callbacks: the signature checked with the auth token, then the form read as a report. */
export class TwilioSmsStatusGate implements SmsStatusGate {
  readonly provider = 'twilio' as const;

  constructor(private readonly options: Pick<TwilioSmsOptions, 'authToken' | 'publicBaseUrl'>) {}

  open(pathAndQuery: string, form: Readonly<Record<string, string>>, signature: string | null): SmsStatusReport | null {
    if (signature === null) return null;
    // Twilio signs the URL it called: our public origin, whatever host a proxy in front passed on.
    const url = `${this.options.publicBaseUrl.replace(/\/+$/, '')}${pathAndQuery}`;
    const expected = Buffer.from(twilioSignature(this.options.authToken, url, form));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const reference = Number(new URL(url).searchParams.get('ref'));
    const status = smsStatusOf(form.MessageStatus ?? form.SmsStatus ?? '');
    const sid = form.MessageSid ?? form.SmsSid ?? '';
    // Signed but not about one of our messages' fate: acknowledged, nothing to apply.
    if (!Number.isSafeInteger(reference) || reference <= 0 || status === null || sid === '')
      return { reference: 0, providerMessageId: sid, status: 'sent', errorCode: null, errorMessage: null };
    return {
      reference,
      providerMessageId: sid,
      status,
      errorCode: form.ErrorCode ? form.ErrorCode.slice(0, 32) : null,
      errorMessage: form.ErrorMessage ? form.ErrorMessage.slice(0, 500) : null,
    };
  }
}
