import { token } from '../shared/token';
import type { BalanceService } from './balance-service';

export const BILLING_TOKENS = {
  BalanceService: token<BalanceService>('BalanceService'),
} as const;
