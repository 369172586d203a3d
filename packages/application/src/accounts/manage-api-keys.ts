import { err, ok, Result } from '@voiceplane/domain';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { ApiKey, CredentialRepository } from '../ports';
import { hashToken } from './secrets';

/** A new key with the one copy of its token the caller will ever see. */
export interface IssuedApiKey {
  readonly key: ApiKey;
  readonly token: string;
}

/** An account's API keys: only a token's hash is stored, and another account's key is never reached. */
export class ManageApiKeys {
  constructor(
    private readonly credentials: CredentialRepository,
    private readonly ids: Ids,
    private readonly uow: UnitOfWork,
  ) {}

  /** Concludes in the key's own commit: the one answer carrying the token is stored with it. */
  create(userId: number, name: string): Promise<IssuedApiKey> {
    const token = this.ids.secretToken('vp_', 40);
    return this.uow.transaction(
      async () => ({ key: await this.credentials.createApiKey(userId, name, hashToken(token)), token }),
      { concludes: true },
    );
  }

  list(userId: number): Promise<ApiKey[]> {
    return this.credentials.listApiKeys(userId);
  }

  /** The key stops authenticating at once. */
  async delete(userId: number, id: number): Promise<Result<true, 'api_key_not_found'>> {
    return (await this.credentials.deleteApiKey(userId, id)) ? ok(true) : err('api_key_not_found');
  }
}
