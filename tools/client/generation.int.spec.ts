import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_DIR, generatedClientFiles } from './generate';

/** CI's guard that the typed client follows the API: regenerating from the current document changes nothing. */
it('packages/client is what the current OpenAPI document generates (run node tools/dist/client/generate.js if not)', async () => {
  for (const [file, content] of Object.entries(await generatedClientFiles())) {
    const committed = readFileSync(join(CLIENT_DIR, file), 'utf8');
    if (committed !== content)
      throw new Error(
        `packages/client/${file} is stale: run \`node tools/dist/client/generate.js\` and commit the result`,
      );
  }
}, 60_000);
