import { AccountRefusal } from '@voiceplane/domain';
import { Answer, AnswerTable } from '../pipeline/answers';

export const USER_NOT_FOUND: Answer = { status: 404, body: { message: 'User not found.' } };
export const API_KEY_NOT_FOUND: Answer = { status: 404, body: { message: 'API key not found.' } };

/** Login, API keys, the account, billing and the operator API. */
export const ACCOUNT_ANSWERS: AnswerTable<AccountRefusal> = {
  invalid_credentials: { status: 401, body: { error: 'Invalid credentials.' } },
  not_a_session: { status: 400, body: { message: 'Only session tokens can be logged out.' } },
  account_gone: { status: 401, body: { error: 'Unauthorized' } },
  api_key_not_found: API_KEY_NOT_FOUND,
  email_taken: { status: 409, body: { message: 'A user with this email already exists.' } },
  user_not_found: USER_NOT_FOUND,
};

/** The `message` of each successful account, API-key and operator write. */
export const ACCOUNT_SUCCESS = {
  loggedIn: 'Login successful.',
  loggedOut: 'Logged out successfully.',
  apiKeyCreated: 'API key created successfully.',
  apiKeyDeleted: 'API key deleted successfully.',
  balanceUpdated: 'Balance updated.',
  planUpdated: 'Plan updated.',
  userUpdated: 'User updated.',
} as const;
