import { getCountryCallingCode, parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js';
import { E164_PATTERN } from '../assistants/built-in-tools';
import { isNumberCountry, NumberCountry, NUMBER_COUNTRIES } from './countries';

/** Only the strict `+digits` form is read as E.164; libphonenumber itself would accept spaces and brackets. */
function parseE164(e164: string): PhoneNumber | undefined {
  return E164_PATTERN.test(e164) ? parsePhoneNumberFromString(e164) : undefined;
}

/**
 * The number country whose numbering plan the number is in. A number libphonenumber places in no
 * region (the ranges set aside for drama, such as 07700 900XXX) or in a region that shares a number
 * country's calling code (Jersey, Jamaica) belongs to that number country — US for +1, the region
 * libphonenumber formats such numbers by.
 */
function numberCountryOf(parsed: PhoneNumber): NumberCountry | null {
  if (parsed.country && isNumberCountry(parsed.country)) return parsed.country;
  return NUMBER_COUNTRIES.find((c) => getCountryCallingCode(c) === parsed.countryCallingCode) ?? null;
}

/** Which of the number countries an E.164 number belongs to, with its national significant number. */
export function splitNumber(e164: string): { country: NumberCountry; national: string } | null {
  const parsed = parseE164(e164);
  const country = parsed && numberCountryOf(parsed);
  return country ? { country, national: parsed.nationalNumber } : null;
}

/**
 * Where voiceplane's published display form differs from libphonenumber's national format:
 * Australian area codes without brackets (`02 5550 1234`), Finnish subscriber digits grouped
 * (`09 123 4567`).
 */
const HOUSE_STYLE: Partial<Record<NumberCountry, (national: string) => string>> = {
  AU: (n) => n.replace(/^\((\d+)\) /, '$1 '),
  FI: (n) => n.replace(/^(\d+) (\d{3})(\d+)$/, '$1 $2 $3'),
};

/**
 * The number as people of its country write it (`020 7946 0123`, `(415) 555-0134`) — the
 * `phone_number_formatted` of search results. Numbers outside the ten countries stay in E.164.
 */
export function formatNational(e164: string): string {
  const parsed = parseE164(e164);
  const country = parsed && numberCountryOf(parsed);
  if (!country) return e164;
  const national = parsed.formatNational();
  return HOUSE_STYLE[country]?.(national) ?? national;
}
