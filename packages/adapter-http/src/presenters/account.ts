import { LedgerEntry, User } from '@voiceplane/domain';
import { ApiKey } from '@voiceplane/application';
import { iso, isoOrNull } from './format';

export const presentPlan = (u: User) => ({ ...u.plan });

export const presentMe = (u: User) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  total_balance: u.balance,
  plan: presentPlan(u),
});

export const presentAdminUser = (u: User) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  disabled: u.disabled,
  total_balance: u.balance,
  plan: presentPlan(u),
  created_at: iso(u.createdAt),
  updated_at: iso(u.updatedAt),
});

export const presentApiKey = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  last_used_at: isoOrNull(k.lastUsedAt),
  created_at: iso(k.createdAt),
});

export const presentLedgerEntry = (e: LedgerEntry) => ({
  id: e.id,
  type: e.type,
  amount: e.amount,
  balance_after: e.balanceAfter,
  description: e.description,
  reference: e.reference,
  created_at: iso(e.createdAt),
});
