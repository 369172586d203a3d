// Records the one closing line CI reads; scripts/run.mjs prints it after Jest has exited so it
// is the last line of the run. A suite that fails to load counts as a failure, so a broken
// import can never look like a green run.
//
// It also keeps a run from hanging. Jest waits for the event loop to empty before it exits, so a
// test that leaves a connection, a server or a timer behind would keep the run alive after its
// last line. --forceExit would end it but hide the leak; --detectOpenHandles runs every file in
// one process, slowly, and still waits. Instead, if the process is still alive EXIT_CEILING_MS
// after the run (global teardown included), this names what holds it open, counts one more
// failure and exits non-zero. When nothing leaks, its unref'd timer never fires.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { openHandles } = require('./open-handles');

const EXIT_CEILING_MS = Number(process.env.JEST_EXIT_CEILING_MS ?? 30_000);

class SummaryReporter {
  constructor(globalConfig) {
    this.file = join(globalConfig.rootDir, '.jest-results', 'summary.txt');
  }

  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const write = (failures) => {
      mkdirSync(join(this.file, '..'), { recursive: true });
      writeFileSync(
        this.file,
        `${results.numPassedTests} passed, ${failures} failed, ${results.numPendingTests} skipped\n`,
      );
    };
    write(failed);
    setTimeout(() => {
      const handles = openHandles();
      process.stderr.write(
        `\nJest has not exited ${EXIT_CEILING_MS / 1000} s after the run: something a test opened was not closed.\n` +
          `Still open:\n${handles.map((h) => `  - ${h}`).join('\n') || '  (nothing Node can name)'}\n` +
          'Close connections, servers and timers in afterAll or in a finally block (see docs/testing.md). Failing the run.\n',
      );
      write(failed + 1);
      process.exit(1);
    }, EXIT_CEILING_MS).unref();
  }
}
module.exports = SummaryReporter;
