import { token } from '../common';
import type { AccountEventStreams } from './account-event-streams';

export const ACCOUNT_EVENT_TOKENS = {
  AccountEventStreams: token<AccountEventStreams>('AccountEventStreams'),
} as const;
