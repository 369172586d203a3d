import { STUB_ACCOUNT_SID, STUB_AUTH_TOKEN, TwilioStub } from '@voiceplane/stand-ins/twilio/twilio-stub';
import { TwilioError, TwilioNumberInventory } from './twilio-number-inventory';

/** The Twilio number inventory against a stub of the 2010-04-01 REST API on 127.0.0.1. */

const SID = STUB_ACCOUNT_SID;
const TOKEN = STUB_AUTH_TOKEN;
const ACCOUNT = `/2010-04-01/Accounts/${SID}`;

let stub: TwilioStub;
beforeAll(async () => {
  stub = await TwilioStub.start();
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const inventory = () => new TwilioNumberInventory({ accountSid: SID, authToken: TOKEN, baseUrl: stub.baseUrl });
const holder = { accountId: 7, phoneNumberId: null };
const basic = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;

const twilioNumber = (phone: string, country: string, requirements = 'none', sms = true) => ({
  friendly_name: phone,
  phone_number: phone,
  lata: null,
  locality: 'London',
  rate_center: null,
  latitude: null,
  longitude: null,
  region: null,
  postal_code: null,
  iso_country: country,
  address_requirements: requirements,
  beta: false,
  capabilities: { voice: true, SMS: sms, MMS: false, fax: false },
});

describe('Twilio number inventory', () => {
  it('searches local numbers and maps them to available numbers (`any` → `local`)', async () => {
    stub.answer({
      status: 200,
      body: {
        available_phone_numbers: [
          twilioNumber('+442079460123', 'GB', 'none', false),
          twilioNumber('+442079460456', 'GB', 'any', true),
          twilioNumber('+442079460789', 'GB', 'foreign', true),
        ],
        uri: `${ACCOUNT}/AvailablePhoneNumbers/GB/Local.json`,
      },
    });
    const found = await inventory().search({ countryCode: 'GB', contains: '7946', limit: 40, accountId: 7 });
    expect(stub.requests).toEqual([
      {
        method: 'GET',
        path: `${ACCOUNT}/AvailablePhoneNumbers/GB/Local.json?PageSize=40&Contains=7946`,
        authorization: basic,
        contentType: undefined,
        body: '',
      },
    ]);
    expect(found).toEqual([
      {
        phoneNumber: '+442079460123',
        phoneNumberFormatted: '020 7946 0123',
        countryCode: 'GB',
        price: 1.5,
        billingPriceId: 'price_gb_local_monthly',
        addressRequirements: 'none',
        smsCapable: false,
      },
      {
        phoneNumber: '+442079460456',
        phoneNumberFormatted: '020 7946 0456',
        countryCode: 'GB',
        price: 1.5,
        billingPriceId: 'price_gb_local_monthly',
        addressRequirements: 'local',
        smsCapable: true,
      },
      {
        phoneNumber: '+442079460789',
        phoneNumberFormatted: '020 7946 0789',
        countryCode: 'GB',
        price: 1.5,
        billingPriceId: 'price_gb_local_monthly',
        addressRequirements: 'foreign',
        smsCapable: true,
      },
    ]);
  });

  it('leaves a one-digit filter to the caller and answers an empty list as such', async () => {
    stub.answer({ status: 200, body: { available_phone_numbers: [] } });
    expect(await inventory().search({ countryCode: 'US', contains: '7', limit: 40, accountId: 7 })).toEqual([]);
    expect(stub.requests[0].path).toBe(`${ACCOUNT}/AvailablePhoneNumbers/US/Local.json?PageSize=40`);
  });

  it('turns provider errors into exceptions (search → 502 upstream)', async () => {
    stub.answer({ status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } });
    await expect(inventory().search({ countryCode: 'US', contains: null, limit: 40, accountId: 7 })).rejects.toEqual(
      new TwilioError(401, 20003, 'Twilio answered 401: Authenticate'),
    );
  });

  it('finds exactly one number by its national digits in its own country (Canada told apart from the US)', async () => {
    stub.answer({
      status: 200,
      body: { available_phone_numbers: [twilioNumber('+14165550123', 'CA'), twilioNumber('+14165550124', 'CA')] },
    });
    const offer = await inventory().find('+14165550124', holder);
    expect(stub.requests[0].path).toBe(
      `${ACCOUNT}/AvailablePhoneNumbers/CA/Local.json?Contains=4165550124&PageSize=20`,
    );
    expect(offer).toEqual({
      phoneNumber: '+14165550124',
      phoneNumberFormatted: '(416) 555-0124',
      countryCode: 'CA',
      price: 1.15,
      billingPriceId: 'price_ca_local_monthly',
      addressRequirements: 'none',
      smsCapable: true,
    });
    stub.answer({ status: 200, body: { available_phone_numbers: [] } });
    expect(await inventory().find('+14155550100', holder)).toBeNull();
    expect(stub.requests[1].path).toBe(
      `${ACCOUNT}/AvailablePhoneNumbers/US/Local.json?Contains=4155550100&PageSize=20`,
    );
    expect(await inventory().find('+33142685300', holder)).toBeNull();
    expect(stub.requests).toHaveLength(2);
  });

  it('buys through IncomingPhoneNumbers and keeps the PN sid for release', async () => {
    stub.answer({ status: 201, body: { sid: 'PN0123456789abcdef0123456789abcdef', phone_number: '+14155550134' } });
    const offer = {
      phoneNumber: '+14155550134',
      phoneNumberFormatted: '(415) 555-0134',
      countryCode: 'US' as const,
      price: 1.15,
      billingPriceId: 'price_us_local_monthly',
      addressRequirements: 'none' as const,
      smsCapable: true,
    };
    expect(await inventory().purchase(offer, holder)).toEqual({ reference: 'PN0123456789abcdef0123456789abcdef' });
    expect(stub.requests).toEqual([
      {
        method: 'POST',
        path: `${ACCOUNT}/IncomingPhoneNumbers.json`,
        authorization: basic,
        contentType: 'application/x-www-form-urlencoded',
        body: 'PhoneNumber=%2B14155550134&FriendlyName=voiceplane+account+7',
      },
    ]);
    stub.answer({ status: 400, body: { code: 21422, message: 'PhoneNumber is not available', status: 400 } });
    expect(await inventory().purchase(offer, holder)).toBeNull();
    stub.answer({ status: 400, body: { code: 21631, message: 'Address required', status: 400 } });
    await expect(inventory().purchase(offer, holder)).rejects.toThrow('Twilio answered 400: Address required');
  });

  it('releases by sid; a number Twilio no longer has, or one never bought there, is released', async () => {
    stub.answer({ status: 204 }, { status: 404, body: { code: 20404, message: 'not found' } }, { status: 503 });
    await inventory().release('+14155550134', 'PNaaa', { accountId: 7, phoneNumberId: 41 });
    await inventory().release('+14155550134', 'PNbbb', { accountId: 7, phoneNumberId: 41 });
    await inventory().release('+14155550134', null, { accountId: 7, phoneNumberId: 41 });
    expect(stub.requests.map((s) => `${s.method} ${s.path}`)).toEqual([
      `DELETE ${ACCOUNT}/IncomingPhoneNumbers/PNaaa.json`,
      `DELETE ${ACCOUNT}/IncomingPhoneNumbers/PNbbb.json`,
    ]);
    await expect(inventory().release('+14155550134', 'PNccc', { accountId: 7, phoneNumberId: 41 })).rejects.toEqual(
      new TwilioError(503, null, 'Twilio answered 503'),
    );
  });
});
