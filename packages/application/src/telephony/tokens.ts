import { token } from '../common';
import type { CreateSipTrunk } from './create-sip-trunk';
import type { DeletePhoneNumber } from './delete-phone-number';
import type { NumberInventory, SipProvisioner } from './ports';
import type { PhoneNumberQueries, SipTrunkQueries } from './phone-number-queries';
import type { PurchasePhoneNumber } from './purchase-phone-number';
import type { RenamePhoneNumber } from './rename-phone-number';
import type { PhoneNumberRepository, SipTrunkRepository } from './repositories';
import type { SearchAvailableNumbers } from './search-available-numbers';
import type { UpdateSipTrunk } from './update-sip-trunk';

export const TELEPHONY_TOKENS = {
  SipTrunkRepository: token<SipTrunkRepository>('SipTrunkRepository'),
  PhoneNumberRepository: token<PhoneNumberRepository>('PhoneNumberRepository'),
  SipProvisioner: token<SipProvisioner>('SipProvisioner'),
  NumberInventory: token<NumberInventory>('NumberInventory'),
  CreateSipTrunk: token<CreateSipTrunk>('CreateSipTrunk'),
  UpdateSipTrunk: token<UpdateSipTrunk>('UpdateSipTrunk'),
  DeletePhoneNumber: token<DeletePhoneNumber>('DeletePhoneNumber'),
  PurchasePhoneNumber: token<PurchasePhoneNumber>('PurchasePhoneNumber'),
  SearchAvailableNumbers: token<SearchAvailableNumbers>('SearchAvailableNumbers'),
  PhoneNumberQueries: token<PhoneNumberQueries>('PhoneNumberQueries'),
  RenamePhoneNumber: token<RenamePhoneNumber>('RenamePhoneNumber'),
  SipTrunkQueries: token<SipTrunkQueries>('SipTrunkQueries'),
} as const;
