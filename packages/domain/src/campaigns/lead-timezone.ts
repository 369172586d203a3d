import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { canonicalTimeZone } from '../assistants/timezone';

/**
 * Countries whose whole territory keeps one civil time, with that zone. A number of a country
 * with several zones (US, CA, MX, BR, AR…, RU, KZ, AU, ID, CD…, or overseas parts such as FR's
 * Réunion, which have numbers of their own) is not placed in any: its lead falls back to the
 * campaign's zone rather than be called at a wrong hour.
 */
const SINGLE_ZONE_COUNTRIES: Readonly<Record<string, string>> = {
  AD: 'Europe/Andorra',
  AE: 'Asia/Dubai',
  AL: 'Europe/Tirane',
  AM: 'Asia/Yerevan',
  AT: 'Europe/Vienna',
  AZ: 'Asia/Baku',
  BA: 'Europe/Sarajevo',
  BD: 'Asia/Dhaka',
  BE: 'Europe/Brussels',
  BG: 'Europe/Sofia',
  BH: 'Asia/Bahrain',
  BY: 'Europe/Minsk',
  CH: 'Europe/Zurich',
  CN: 'Asia/Shanghai',
  CO: 'America/Bogota',
  CR: 'America/Costa_Rica',
  CY: 'Asia/Nicosia',
  CZ: 'Europe/Prague',
  DE: 'Europe/Berlin',
  DK: 'Europe/Copenhagen',
  DZ: 'Africa/Algiers',
  EE: 'Europe/Tallinn',
  EG: 'Africa/Cairo',
  FI: 'Europe/Helsinki',
  FR: 'Europe/Paris',
  GB: 'Europe/London',
  GE: 'Asia/Tbilisi',
  GH: 'Africa/Accra',
  GR: 'Europe/Athens',
  GT: 'America/Guatemala',
  HK: 'Asia/Hong_Kong',
  HR: 'Europe/Zagreb',
  HU: 'Europe/Budapest',
  IE: 'Europe/Dublin',
  IL: 'Asia/Jerusalem',
  IN: 'Asia/Kolkata',
  IQ: 'Asia/Baghdad',
  IS: 'Atlantic/Reykjavik',
  IT: 'Europe/Rome',
  JM: 'America/Jamaica',
  JO: 'Asia/Amman',
  JP: 'Asia/Tokyo',
  KE: 'Africa/Nairobi',
  KR: 'Asia/Seoul',
  KW: 'Asia/Kuwait',
  LB: 'Asia/Beirut',
  LI: 'Europe/Vaduz',
  LK: 'Asia/Colombo',
  LT: 'Europe/Vilnius',
  LU: 'Europe/Luxembourg',
  LV: 'Europe/Riga',
  MA: 'Africa/Casablanca',
  MC: 'Europe/Monaco',
  MD: 'Europe/Chisinau',
  ME: 'Europe/Podgorica',
  MK: 'Europe/Skopje',
  MT: 'Europe/Malta',
  MY: 'Asia/Kuala_Lumpur',
  NG: 'Africa/Lagos',
  NL: 'Europe/Amsterdam',
  NO: 'Europe/Oslo',
  NP: 'Asia/Kathmandu',
  OM: 'Asia/Muscat',
  PA: 'America/Panama',
  PE: 'America/Lima',
  PH: 'Asia/Manila',
  PK: 'Asia/Karachi',
  PL: 'Europe/Warsaw',
  QA: 'Asia/Qatar',
  RO: 'Europe/Bucharest',
  RS: 'Europe/Belgrade',
  SA: 'Asia/Riyadh',
  SE: 'Europe/Stockholm',
  SG: 'Asia/Singapore',
  SI: 'Europe/Ljubljana',
  SK: 'Europe/Bratislava',
  SM: 'Europe/San_Marino',
  SN: 'Africa/Dakar',
  SV: 'America/El_Salvador',
  TH: 'Asia/Bangkok',
  TN: 'Africa/Tunis',
  TR: 'Europe/Istanbul',
  TW: 'Asia/Taipei',
  TZ: 'Africa/Dar_es_Salaam',
  UY: 'America/Montevideo',
  VE: 'America/Caracas',
  VN: 'Asia/Ho_Chi_Minh',
  ZA: 'Africa/Johannesburg',
};

/**
 * The zone a contact's calling window is read in when its campaign reads windows in the lead's own
 * time: its `timezone` variable when that names an IANA zone, else the zone of its number's
 * country when the country has exactly one; null means the campaign's zone.
 */
export function leadTimezone(variables: Readonly<Record<string, string>>, phoneNumber: string): string | null {
  const named = variables.timezone === undefined ? null : canonicalTimeZone(variables.timezone.trim());
  if (named !== null) return named;
  const country = parsePhoneNumberFromString(phoneNumber)?.country;
  return (country && SINGLE_ZONE_COUNTRIES[country]) || null;
}
