import { isJsonObject, JsonObject } from '../json';
import { requireId, StepKindRules } from './step-kind';

/** `note`: the JSON object posted to the connection's notes path. */
export interface PushNoteConfig {
  readonly connection_id: number;
  readonly note: JsonObject;
}

/**
 * A note posted through an HTTP API connection. A 401/403 means the connection is lost here (for
 * `http.request` it is an answer like any other non-2xx).
 */
export const PUSH_NOTE_STEP: StepKindRules<PushNoteConfig> = {
  checkConfig: (c, bad) => {
    requireId(c, 'connection_id', bad);
    if (!isJsonObject(c.note)) bad('note');
  },
  classifyFailure: (reason) =>
    reason === 'connection_unusable' || reason === 'http_unauthorized' ? 'missing_connection' : null,
};
