import type * as LiveKitSdk from 'livekit-server-sdk';

let sdk: typeof LiveKitSdk | undefined;

/**
 * livekit-server-sdk (with its protobuf protocol and JWT libraries), loaded on first use: the
 * embedded default runs the sandbox voice runtime and never needs it, so it stays out of start-up.
 */
export function livekitSdk(): typeof LiveKitSdk {
  return (sdk ??= require('livekit-server-sdk') as typeof LiveKitSdk);
}
