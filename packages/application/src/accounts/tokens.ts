import { token } from '../common';
import type {
  CredentialRepository,
  LedgerRepository,
  SettingsRepository,
  SigningSecretRepository,
  UserRepository,
} from '../ports';
import type { AdministerAccounts } from './administer-accounts';
import type { Authenticator } from './authenticator';
import type { CreateAccount } from './create-account';
import type { CurrentAccount } from './current-account';
import type { Login } from './login';
import type { ManageApiKeys } from './manage-api-keys';

export const ACCOUNT_TOKENS = {
  UserRepository: token<UserRepository>('UserRepository'),
  LedgerRepository: token<LedgerRepository>('LedgerRepository'),
  CredentialRepository: token<CredentialRepository>('CredentialRepository'),
  SigningSecretRepository: token<SigningSecretRepository>('SigningSecretRepository'),
  SettingsRepository: token<SettingsRepository>('SettingsRepository'),
  Authenticator: token<Authenticator>('Authenticator'),
  CreateAccount: token<CreateAccount>('CreateAccount'),
  Login: token<Login>('Login'),
  AdministerAccounts: token<AdministerAccounts>('AdministerAccounts'),
  CurrentAccount: token<CurrentAccount>('CurrentAccount'),
  ManageApiKeys: token<ManageApiKeys>('ManageApiKeys'),
} as const;
