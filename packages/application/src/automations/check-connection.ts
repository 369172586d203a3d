import { Connection, connectionAuthHeader } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { OutboundHttpClient } from '../ports';
import { SecretCipher } from '../common';
import { ToolGateway } from '../tools';
import { AUTOMATION_EVENT_TYPE, STEP_HTTP_TIMEOUT_MS } from './automation-steps';
import { ConnectionRepository } from './ports';

/**
 * `POST /api/user/automate/connections/{id}/check`: a signed GET of the base URL
 * with the credentials; 401/403, a timeout or no answer is `broken`, anything else `connected`.
 */
export class CheckConnection {
  constructor(
    private readonly connections: ConnectionRepository,
    private readonly http: OutboundHttpClient,
    private readonly gateway: ToolGateway,
    private readonly cipher: SecretCipher,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(userId: number, id: number): Promise<Connection | null> {
    const connection = await this.connections.find(userId, id);
    if (connection === null) return null;
    const secret = connection.sealedAuthValue === null ? null : await this.cipher.decrypt(connection.sealedAuthValue);
    const auth = connectionAuthHeader(connection.authType, connection.authHeaderName, secret);
    const response = await this.http.send({
      method: 'GET',
      url: connection.baseUrl,
      headers: auth ? [auth] : [],
      timeoutMs: STEP_HTTP_TIMEOUT_MS,
      eventType: AUTOMATION_EVENT_TYPE,
      signing: { secrets: await this.gateway.signingSecrets(userId), webhookId: this.ids.token('msg_', 22) },
    });
    const problem = brokenBecause(response.statusCode, response.error);
    // The check's result and the connection read back commit together: an idempotent answer stored
    // there is replayed after a crash without calling the CRM again.
    return this.uow.transaction(
      async () => {
        await this.connections.recordCheck(
          connection.id,
          problem === null ? 'connected' : 'broken',
          problem,
          this.clock.now(),
        );
        return this.connections.find(userId, id);
      },
      { concludes: true },
    );
  }
}

function brokenBecause(statusCode: number | null, error: string | null): string | null {
  if (statusCode === 401 || statusCode === 403) return `The CRM refused the credentials (HTTP ${statusCode}).`;
  if (error === 'timeout') return 'The CRM did not answer within 10 seconds.';
  if (error === 'blocked_target') return 'The base URL is not an allowed address.';
  if (statusCode === null) return 'The CRM could not be reached.';
  return null;
}
