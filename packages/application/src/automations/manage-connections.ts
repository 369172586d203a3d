import {
  Connection,
  ConnectionAuthType,
  CredentialProblems,
  credentialProblems,
  DEFAULT_NOTES_PATH,
  err,
  ok,
  Result,
} from '@voiceplane/domain';
import type { SecretCipher } from '../common';
import { UnitOfWork } from '../ports';
import { ConnectionFields, ConnectionRepository } from './ports';

/** A connection as a request gives it: the credential in clear, sealed before it is stored. */
export interface ConnectionInput {
  readonly name: string;
  readonly baseUrl: string;
  readonly notesPath?: string;
  readonly authType: ConnectionAuthType;
  readonly authValue?: string;
  readonly authHeaderName?: string;
}

export interface InvalidCredentials {
  readonly code: 'invalid_credentials';
  readonly problems: CredentialProblems;
}

export type ConnectionRefusal = 'connection_not_found' | InvalidCredentials;

const hasProblems = (p: CredentialProblems): boolean => Object.keys(p).length > 0;

/**
 * An account's HTTP API connections. The credential is sealed by the deployment cipher before it
 * is stored and never given back; changing the base URL or the credentials makes the connection
 * `connected` again until the next check says otherwise.
 */
export class ManageConnections {
  constructor(
    private readonly connections: ConnectionRepository,
    private readonly cipher: SecretCipher,
    private readonly uow: UnitOfWork,
  ) {}

  list(userId: number): Promise<Connection[]> {
    return this.connections.list(userId);
  }

  async create(userId: number, input: ConnectionInput): Promise<Result<Connection, InvalidCredentials>> {
    const problems = credentialProblems(input.authType, input.authValue, input.authHeaderName);
    if (hasProblems(problems)) return err({ code: 'invalid_credentials', problems });
    const fields: ConnectionFields = {
      name: input.name,
      kind: 'http_api',
      baseUrl: input.baseUrl,
      notesPath: input.notesPath ?? DEFAULT_NOTES_PATH,
      authType: input.authType,
      authHeaderName: input.authType === 'header' ? (input.authHeaderName as string) : null,
      sealedAuthValue: input.authType === 'none' ? null : await this.cipher.encrypt(input.authValue as string),
    };
    // Concludes in the connection's own commit.
    return this.uow.transaction(async () => ok(await this.connections.create(userId, fields)), { concludes: true });
  }

  /** `changesOf` is read once the connection is known to be the caller's. */
  async update(
    userId: number,
    id: number,
    changesOf: () => Partial<ConnectionInput>,
  ): Promise<Result<Connection, ConnectionRefusal>> {
    const existing = await this.connections.find(userId, id);
    if (existing === null) return err('connection_not_found');
    const input = changesOf();
    const authType = input.authType ?? existing.authType;
    const credentialsChange =
      input.authType !== undefined || input.authValue !== undefined || input.authHeaderName !== undefined;
    if (credentialsChange) {
      // A stored secret stands in for a value not sent again; its form was checked when it was set.
      const value = input.authValue ?? (authType !== 'none' && existing.sealedAuthValue ? 'kept:kept' : undefined);
      const problems = credentialProblems(authType, value, input.authHeaderName ?? existing.authHeaderName);
      if (hasProblems(problems)) return err({ code: 'invalid_credentials', problems });
    }
    const changes: { -readonly [K in keyof ConnectionFields]?: ConnectionFields[K] } = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.baseUrl !== undefined) changes.baseUrl = input.baseUrl;
    if (input.notesPath !== undefined) changes.notesPath = input.notesPath;
    if (input.authType !== undefined) changes.authType = input.authType;
    if (authType === 'none') {
      changes.sealedAuthValue = null;
      changes.authHeaderName = null;
    } else if (input.authValue !== undefined) changes.sealedAuthValue = await this.cipher.encrypt(input.authValue);
    if (authType === 'header' && input.authHeaderName !== undefined) changes.authHeaderName = input.authHeaderName;
    if (authType !== 'header' && authType !== 'none') changes.authHeaderName = null;
    const reset = input.baseUrl !== undefined || credentialsChange;
    const updated = await this.connections.update(userId, existing.id, changes, reset);
    return updated === null ? err('connection_not_found') : ok(updated);
  }

  async delete(userId: number, id: number): Promise<Result<true, 'connection_not_found'>> {
    return (await this.connections.delete(userId, id)) ? ok(true) : err('connection_not_found');
  }
}
