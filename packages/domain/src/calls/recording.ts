/**
 * Where a call's recording lives in the media store. The voice runtime that records the call and
 * the route that serves it derive the place from the call id alone, so nothing has to be handed
 * over between them while the call runs.
 */
export const recordingMediaKey = (callId: number): string => `callrec_${callId}.ogg`;

/** The call a stored recording belongs to (any folder before the key), or null for anything else. */
export function callIdOfRecordingPath(path: string): number | null {
  const match = /(?:^|\/)callrec_([1-9][0-9]{0,14})\.ogg$/.exec(path);
  return match ? Number(match[1]) : null;
}

/** The address users fetch a recording from: the product's own route, behind the account's credentials. */
export const recordingUrlOf = (publicBaseUrl: string, callId: number): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/api/user/calls/${callId}/recording`;

/** The folder S3-compatible media stores keep their objects in, unless told otherwise. */
export const MEDIA_OBJECT_PREFIX = 'chatapp-media/';
