import { isIP, type LookupFunction } from 'node:net';

/**
 * A socket `lookup` that answers with addresses already resolved and checked, so the connection
 * goes where the policy looked and a second DNS answer (rebinding) never gets a say.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    // net asks for every address when it races families (autoSelectFamily), else for one.
    process.nextTick(() => {
      if (options.all) callback(null, entries);
      else callback(null, entries[0].address, entries[0].family);
    });
  };
}
