import { token } from '../common';
import type { BalanceService } from './balance-service';
import type { BillingQueries } from './billing-queries';

export const BILLING_TOKENS = {
  BalanceService: token<BalanceService>('BalanceService'),
  BillingQueries: token<BillingQueries>('BillingQueries'),
} as const;
