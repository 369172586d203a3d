// Jest runs a test file in its own realm, whose typed arrays are not Node's: onnxruntime's native
// binding (under the Silero VAD) refuses a Float32Array of the test realm ("A float32 tensor's data
// must be type of function Float32Array()"), and LiveKit's streams take a reader released by Node
// for an error they cannot ignore, as `instanceof TypeError` fails across realms (the test then
// fails with "Invalid state: Releasing reader"). Suites that run the audio loop use Node's own.
const { dirname } = require('node:path');
// Not a dependency of ours: the one Jest itself runs with (through jest-config).
const jestConfig = require.resolve('jest-config', { paths: [dirname(require.resolve('jest'))] });
const { TestEnvironment } = require(require.resolve('jest-environment-node', { paths: [dirname(jestConfig)] }));

const TYPED = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'TypeError',
];

class NativeTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED) this.global[name] = globalThis[name];
  }
}

module.exports = NativeTypedArraysEnvironment;
