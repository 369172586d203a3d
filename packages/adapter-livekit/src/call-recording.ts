import type { EgressInfo, WebhookReceiver } from 'livekit-server-sdk';
import { livekitSdk } from './livekit-sdk';
import type { RecordingNotices, RecordingOutcome, S3Bucket } from '@voiceplane/application';
import { callIdOfRecordingPath, MEDIA_OBJECT_PREFIX, recordingMediaKey } from '@voiceplane/domain';

/** The bucket LiveKit's egress uploads into: the product's media store (the name the voice agent's environment reads it by). */
export type RecordingStorage = S3Bucket;

export interface LiveKitCredentials {
  readonly url: string;
  readonly apiKey: string;
  readonly apiSecret: string;
}

/**
 * Starts recording a call's room: LiveKit's room-composite egress, audio only (every voice on the
 * line mixed, as the customer and the assistant heard it), written as one OGG file straight into the
 * media store's bucket under the call's recording key, where the recording route reads it.
 */
export function startCallRecording(
  livekit: LiveKitCredentials,
  room: string,
  callId: number,
  storage: RecordingStorage,
): Promise<EgressInfo> {
  const egress = new (livekitSdk().EgressClient)(livekit.url, livekit.apiKey, livekit.apiSecret);
  const upload = new (livekitSdk().S3Upload)({
    bucket: storage.bucket,
    region: storage.region,
    endpoint: storage.endpoint ?? '',
    accessKey: storage.accessKeyId ?? '',
    secret: storage.secretAccessKey ?? '',
    forcePathStyle: storage.forcePathStyle,
  });
  const file = new (livekitSdk().EncodedFileOutput)({
    fileType: livekitSdk().EncodedFileType.OGG,
    filepath: MEDIA_OBJECT_PREFIX + recordingMediaKey(callId),
    // The manifest would be a second object beside the recording that nothing reads.
    disableManifest: true,
    output: { case: 's3', value: upload },
  });
  return egress.startRoomCompositeEgress(room, file, { audioOnly: true });
}

/**
 * LiveKit's webhooks, checked against the API secret (the `Authorization` header is a JWT carrying the
 * body's hash). Only the end of a call recording's egress means anything here; every other event
 * (and any egress that is not a call recording) answers null.
 */
export class LiveKitRecordingNotices implements RecordingNotices {
  private readonly receiver: WebhookReceiver;

  constructor(credentials: Pick<LiveKitCredentials, 'apiKey' | 'apiSecret'>) {
    this.receiver = new (livekitSdk().WebhookReceiver)(credentials.apiKey, credentials.apiSecret);
  }

  /** Throws when the body is not a webhook LiveKit signed with our key. */
  async read(body: string, authorization: string | undefined): Promise<RecordingOutcome | null> {
    const event = await this.receiver.receive(body, authorization);
    if (event.event !== 'egress_ended' || !event.egressInfo) return null;
    return recordingOutcomeOf(event.egressInfo);
  }
}

export function recordingOutcomeOf(info: EgressInfo): RecordingOutcome | null {
  const paths = info.fileResults.map((f) => f.filename);
  const request = info.request.case === 'roomComposite' ? info.request.value : null;
  const file = request?.fileOutputs[0] ?? (request?.output.case === 'file' ? request.output.value : undefined);
  if (file) paths.push(file.filepath);
  const callId = paths.map(callIdOfRecordingPath).find((id) => id !== null) ?? null;
  if (callId === null) return null;
  return { callId, stored: info.status === livekitSdk().EgressStatus.EGRESS_COMPLETE };
}
