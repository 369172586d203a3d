/**
 * Expected refusals of login, credentials, the account and the operator API;
 * the transport answers each.
 */
export type AccountRefusal =
  | 'invalid_credentials'
  | 'not_a_session'
  /** A valid token whose account no longer exists. */
  | 'account_gone'
  | 'api_key_not_found'
  | 'email_taken'
  | 'user_not_found';
