import { TwilioError, TwilioOptions, twilioRequest } from './twilio-rest';
import { AvailableNumber, NumberHolder, NumberInventory, NumberSearch } from '@voiceplane/application';
import {
  addressRequirementOf,
  formatNational,
  isNumberCountry,
  monthlyPrice,
  NumberCountry,
  numberContains,
  splitNumber,
} from '@voiceplane/domain';

/** One entry of Twilio's AvailablePhoneNumbers list. */
interface TwilioAvailableNumber {
  readonly phone_number: string;
  readonly iso_country: string;
  readonly address_requirements?: string;
  readonly capabilities?: Record<string, boolean>;
}

/** Twilio's error code for a number someone else bought first. */
const NUMBER_NOT_AVAILABLE = 21422;

/**
 * The number inventory on Twilio (2010-04-01 REST API): local numbers from AvailablePhoneNumbers,
 * bought and released through IncomingPhoneNumbers. Prices are voiceplane's own monthly rental
 * (what the account is charged), not Twilio's cost; the national display form is ours too, so it
 * looks the same whichever inventory is configured.
 */
export { TwilioError, type TwilioOptions } from './twilio-rest';

export class TwilioNumberInventory implements NumberInventory {
  private readonly account: string;
  private readonly authorization: string;

  constructor(private readonly options: TwilioOptions) {
    this.account = `${options.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}`;
    this.authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  }

  async search(query: NumberSearch): Promise<AvailableNumber[]> {
    const params = new URLSearchParams({ PageSize: String(query.limit) });
    // Twilio wants at least two characters in a pattern; a single digit is filtered here instead.
    if (query.contains && query.contains.length >= 2) params.set('Contains', query.contains);
    const offered = await this.available(query.countryCode, params);
    return offered.filter((n) => numberContains(n.phoneNumber, query.contains));
  }

  async find(phoneNumber: string, _holder: NumberHolder): Promise<AvailableNumber | null> {
    const split = splitNumber(phoneNumber);
    if (!split) return null;
    const found = await this.available(
      split.country,
      new URLSearchParams({ Contains: split.national, PageSize: '20' }),
    );
    return found.find((n) => n.phoneNumber === phoneNumber) ?? null;
  }

  async purchase(offer: AvailableNumber, holder: NumberHolder): Promise<{ reference: string | null } | null> {
    const form = new URLSearchParams({
      PhoneNumber: offer.phoneNumber,
      FriendlyName: `voiceplane account ${holder.accountId}`,
    });
    try {
      const bought = await this.request<{ sid: string }>('POST', `${this.account}/IncomingPhoneNumbers.json`, form);
      return { reference: bought.sid };
    } catch (e) {
      if (e instanceof TwilioError && e.code === NUMBER_NOT_AVAILABLE) return null;
      throw e;
    }
  }

  async release(_phoneNumber: string, reference: string | null, _holder: NumberHolder): Promise<void> {
    // A number without a Twilio reference was never bought here: there is nothing to give back.
    if (!reference) return;
    try {
      await this.request('DELETE', `${this.account}/IncomingPhoneNumbers/${encodeURIComponent(reference)}.json`);
    } catch (e) {
      if (!(e instanceof TwilioError && e.status === 404)) throw e;
    }
  }

  private async available(country: NumberCountry, params: URLSearchParams): Promise<AvailableNumber[]> {
    const body = await this.request<{ available_phone_numbers?: TwilioAvailableNumber[] }>(
      'GET',
      `${this.account}/AvailablePhoneNumbers/${country}/Local.json?${params.toString()}`,
    );
    return (body.available_phone_numbers ?? []).flatMap((n) => {
      if (!isNumberCountry(n.iso_country)) return [];
      const { price, billingPriceId } = monthlyPrice(n.iso_country, 'local');
      return [
        {
          phoneNumber: n.phone_number,
          phoneNumberFormatted: formatNational(n.phone_number),
          countryCode: n.iso_country,
          price,
          billingPriceId,
          addressRequirements: addressRequirementOf(n.address_requirements ?? 'none'),
          smsCapable: n.capabilities?.SMS === true || n.capabilities?.sms === true,
        },
      ];
    });
  }

  private request<T = unknown>(method: 'GET' | 'POST' | 'DELETE', url: string, form?: URLSearchParams): Promise<T> {
    return twilioRequest<T>(this.authorization, this.options.timeoutMs, method, url, form);
  }
}
