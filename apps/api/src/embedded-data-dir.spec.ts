import { loadConfig } from '@voiceplane/composition';
import { embeddedDataDir } from './embedded-data-dir';

describe('embeddedDataDir', () => {
  // The entry opens the database by this rule before the configuration loads: the two must agree.
  it.each<[string, NodeJS.ProcessEnv]>([
    ['nothing set', {}],
    ['a data directory', { VOICEPLANE_DATA_DIR: '/srv/voiceplane' }],
    ['a relative data directory, spaces around', { VOICEPLANE_DATA_DIR: '  data/here ' }],
    ['a blank data directory', { VOICEPLANE_DATA_DIR: '   ' }],
    ['a blank database URL', { DATABASE_URL: '  ', VOICEPLANE_DATA_DIR: '/srv/vp' }],
    ['a database URL', { DATABASE_URL: 'postgres://u@db:5432/vp', VOICEPLANE_DATA_DIR: '/srv/vp' }],
  ])('agrees with the configuration: %s', (_, env) => {
    const config = loadConfig(env);
    expect(embeddedDataDir(env)).toBe(config.databaseUrl ? null : config.dataDir);
  });
});
