import { formatNational } from '../telephony/phone-format';

/**
 * The customer's number as a SIP trunk's `sip_calling_format` wants it dialled:
 * `+e164` as stored, `e164` without the plus, `national` as dialled inside the country (trunk
 * prefix included where the country has one). A number of a country without national rules
 * falls back to its digits.
 */
export function dialledNumber(e164: string, callingFormat: string): string {
  if (callingFormat === 'e164') return e164.replace(/^\+/, '');
  if (callingFormat === 'national') return formatNational(e164).replace(/\D/g, '');
  return e164;
}
