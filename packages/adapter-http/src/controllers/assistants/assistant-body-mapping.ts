import { AssistantChanges, camelCase } from '@voiceplane/domain';

/**
 * The request's well-formed fields under the product's names (`webhook_url` → `webhookUrl`). The
 * values are already checked and normalised; only the names change. Error keys stay wire names.
 */
export function assistantChangesFromWire(fields: Readonly<Record<string, unknown>>): AssistantChanges {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [camelCase(name), value]),
  ) as AssistantChanges;
}
