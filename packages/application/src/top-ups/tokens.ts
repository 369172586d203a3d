import { token } from '../common';
import type { ChargeFollowUp } from '../billing';
import type { AutoRechargeSettingsService } from './auto-recharge-settings';
import type { BillingGateway } from './ports';
import type { BillingInbox, TopUpRepository } from './repositories';
import type { ReceiveBillingEvent } from './billing-ingress';
import type { SettleTopUp } from './settle-top-up';
import type { SandboxCheckout } from './sandbox-checkout';
import type { StartTopUp } from './start-top-up';
import type { TopUpQueries } from './top-up-queries';

export const TOP_UP_TOKENS = {
  TopUpRepository: token<TopUpRepository>('TopUpRepository'),
  BillingGateway: token<BillingGateway>('BillingGateway'),
  BillingInbox: token<BillingInbox>('BillingInbox'),
  StartTopUp: token<StartTopUp>('StartTopUp'),
  TopUpQueries: token<TopUpQueries>('TopUpQueries'),
  SettleTopUp: token<SettleTopUp>('SettleTopUp'),
  SandboxCheckout: token<SandboxCheckout>('SandboxCheckout'),
  AutoRechargeSettings: token<AutoRechargeSettingsService>('AutoRechargeSettings'),
  ReceiveBillingEvent: token<ReceiveBillingEvent>('ReceiveBillingEvent'),
  /** What BalanceService runs after every charge, when a capability binds one. */
  ChargeFollowUp: token<ChargeFollowUp>('ChargeFollowUp'),
} as const;
