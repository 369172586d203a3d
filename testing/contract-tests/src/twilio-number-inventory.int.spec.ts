import { TwilioNumberInventory } from '@voiceplane/adapter-twilio';
import {
  STUB_ACCOUNT_SID,
  STUB_AUTH_TOKEN,
  TwilioAnswer,
  TwilioRequest,
  TwilioStub,
} from '@voiceplane/stand-ins/twilio/twilio-stub';
import { numberInventoryContract } from './number-inventory.contract';

const ACCOUNT = `/2010-04-01/Accounts/${STUB_ACCOUNT_SID}`;
const BASIC = `Basic ${Buffer.from(`${STUB_ACCOUNT_SID}:${STUB_AUTH_TOKEN}`).toString('base64')}`;

const local = (phone: string, country: string, addressRequirements = 'none', sms = true) => ({
  friendly_name: phone,
  phone_number: phone,
  iso_country: country,
  address_requirements: addressRequirements,
  beta: false,
  capabilities: { voice: true, SMS: sms, MMS: false, fax: false },
});

/** Twilio's stock of local numbers, in the ranges set aside for fiction (555-01XX, 020 7946 0XXX, 0161 496 0XXX). */
const STOCK = [
  local('+14155550101', 'US'),
  local('+14155550112', 'US'),
  local('+14155550123', 'US', 'any'),
  local('+14155550145', 'US'),
  local('+12125550156', 'US', 'none', false),
  local('+12125550167', 'US'),
  local('+14165550101', 'CA'),
  local('+14165550117', 'CA'),
  local('+16045550128', 'CA', 'any'),
  local('+16045550139', 'CA'),
  local('+442079460123', 'GB', 'none', false),
  local('+442079460456', 'GB', 'any'),
  local('+442079460789', 'GB', 'foreign'),
  local('+441614960000', 'GB'),
  local('+441614960555', 'GB'),
];

const notFound: TwilioAnswer = {
  status: 404,
  body: { code: 20404, message: 'The requested resource was not found', status: 404 },
};

/**
 * The parts of Twilio's REST API the number inventory uses, with state: AvailablePhoneNumbers
 * lists the stock minus what is bought (`Contains` taken as digits anywhere in the number,
 * `PageSize` as the cap), IncomingPhoneNumbers buys (21422 once a number is gone) and releases
 * by `PN…` sid (404 for a sid it does not hold).
 */
class TwilioNumbers {
  /** PN sid → the number bought under it. */
  private readonly bought = new Map<string, string>();

  answer(request: TwilioRequest): TwilioAnswer {
    if (request.authorization !== BASIC)
      return { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } };
    const url = new URL(request.path, 'http://twilio.stub');
    if (!url.pathname.startsWith(`${ACCOUNT}/`)) return notFound;
    const resource = url.pathname.slice(ACCOUNT.length);
    const search = /^\/AvailablePhoneNumbers\/([A-Z]{2})\/Local\.json$/.exec(resource);
    if (request.method === 'GET' && search) return this.available(search[1], url.searchParams);
    if (request.method === 'POST' && resource === '/IncomingPhoneNumbers.json')
      return this.buy(new URLSearchParams(request.body).get('PhoneNumber') ?? '');
    const release = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(resource);
    if (request.method === 'DELETE' && release) return this.bought.delete(release[1]) ? { status: 204 } : notFound;
    return notFound;
  }

  private available(country: string, query: URLSearchParams): TwilioAnswer {
    const contains = query.get('Contains');
    const offered = this.stock().filter(
      (n) => n.iso_country === country && (!contains || n.phone_number.replace(/\D/g, '').includes(contains)),
    );
    return { status: 200, body: { available_phone_numbers: offered.slice(0, Number(query.get('PageSize') ?? 50)) } };
  }

  private buy(phoneNumber: string): TwilioAnswer {
    if (!this.stock().some((n) => n.phone_number === phoneNumber)) {
      return { status: 400, body: { code: 21422, message: 'PhoneNumber is not available', status: 400 } };
    }
    const sid = `PN${(this.bought.size + 1).toString(16).padStart(32, '0')}`;
    this.bought.set(sid, phoneNumber);
    return { status: 201, body: { sid, phone_number: phoneNumber } };
  }

  private stock() {
    const gone = new Set(this.bought.values());
    return STOCK.filter((n) => !gone.has(n.phone_number));
  }
}

let stub: TwilioStub;
beforeAll(async () => {
  stub = await TwilioStub.start();
});
afterAll(async () => stub.close());

numberInventoryContract('Twilio (REST stub)', () => {
  stub.reset();
  const twilio = new TwilioNumbers();
  stub.respondWith((request) => twilio.answer(request));
  return new TwilioNumberInventory({ accountSid: STUB_ACCOUNT_SID, authToken: STUB_AUTH_TOKEN, baseUrl: stub.baseUrl });
});
