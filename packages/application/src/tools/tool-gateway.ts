import {
  substitutionWarnings,
  TOOL_EVENT_TYPE,
  ToolCallResult,
  toolCallResult,
  ToolDefinition,
  ToolHeader,
  ToolRequest,
  unsentToolCallResult,
} from '@voiceplane/domain';
import { SigningSecretRepository } from '../ports';
import { Clock } from '../ports';
import { OutboundHttpClient } from '../ports';

/**
 * Sends a built tool request under the outbound policy, signed with the account's secrets, and
 * turns whatever happened into the text the AI reads. No retries: a
 * live call is waiting.
 */
export class ToolGateway {
  constructor(
    private readonly http: OutboundHttpClient,
    private readonly secrets: SigningSecretRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Sends `request` unless it would not send. `webhookId` (`tcl_…`) names this invocation to the
   * receiver; `secrets` come from `signingSecrets` of the tool's owner.
   */
  async send(
    tool: ToolDefinition,
    request: ToolRequest,
    webhookId: string,
    secrets: readonly string[],
  ): Promise<ToolCallResult> {
    const warnings = substitutionWarnings(request);
    if (!request.wouldSend) return unsentToolCallResult(request, warnings);
    const outcome = await this.http.send({
      method: request.method,
      url: request.url,
      headers: request.headers.map(onTheWire),
      body: request.body ?? undefined,
      timeoutMs: tool.timeout * 1000,
      eventType: TOOL_EVENT_TYPE,
      signing: { secrets, webhookId },
    });
    return toolCallResult(outcome, tool.timeout, warnings);
  }

  /** Newest first; the previous secret signs too while its rotation grace lasts. */
  async signingSecrets(userId: number): Promise<string[]> {
    const stored = await this.secrets.get(userId);
    if (stored === null) throw new Error(`User ${userId} has no signing secret.`);
    const graceLasts =
      stored.previousSecret !== null &&
      stored.previousExpiresAt !== null &&
      stored.previousExpiresAt > this.clock.now();
    return graceLasts ? [stored.secret, stored.previousSecret as string] : [stored.secret];
  }
}

/**
 * HTTP header values are bytes; Node refuses characters above U+00FF. Such values (a customer name
 * from a variable, say) go out as their UTF-8 bytes, which is how receivers decode them.
 */
function onTheWire(header: ToolHeader): ToolHeader {
  if (!/[^\u0000-\u00ff]/.test(header.value)) return header;
  return { name: header.name, value: Buffer.from(header.value, 'utf8').toString('latin1') };
}
