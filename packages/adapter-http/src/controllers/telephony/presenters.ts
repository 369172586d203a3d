import { AvailableNumber, PhoneNumber, StoredSipTrunk } from '@voiceplane/application';
import { iso } from '../../presenters/format';

/** The SIP trunk record; `sip_password` is never part of it. */
export const presentSipTrunk = (t: StoredSipTrunk) => ({
  id: t.id,
  phone_number: t.phoneNumber,
  nickname: t.nickname,
  sip_username: t.sipUsername,
  sip_address: t.sipAddress,
  sip_calling_format: t.sipCallingFormat,
  inbound_authorization_type: t.inboundAuthorizationType,
  allowed_inbound_ips: t.allowedInboundIps === null ? null : [...t.allowedInboundIps],
  outbound_proxy: t.outboundProxy,
  country_code: t.countryCode,
  inbound_trunk_id: t.inboundTrunkId,
  outbound_trunk_id: t.outboundTrunkId,
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
});

/** The phone-number record. */
export const presentPhoneNumber = (n: PhoneNumber) => ({
  id: n.id,
  phone_number: n.phoneNumber,
  type: n.type,
  country_code: n.countryCode,
  nickname: n.nickname,
  sms_capable: n.smsCapable,
  monthly_price: n.monthlyPrice,
  inbound_assistant_id: n.inboundAssistantId,
  created_at: iso(n.createdAt),
  updated_at: iso(n.updatedAt),
});

/** The purchase answer (a subset of the record). */
export const presentPurchase = (n: PhoneNumber) => ({
  id: n.id,
  phone_number: n.phoneNumber,
  country_code: n.countryCode,
  type: n.type,
  sms_capable: n.smsCapable,
});

/** An available number. */
export const presentAvailableNumber = (o: AvailableNumber) => ({
  phone_number: o.phoneNumber,
  phone_number_formatted: o.phoneNumberFormatted,
  country_code: o.countryCode,
  price: o.price,
  billing_price_id: o.billingPriceId,
  address_requirements: o.addressRequirements,
  sms_capable: o.smsCapable,
});
