// Records the one closing line CI reads; scripts/run.mjs prints it after Jest has exited so it
// is the last line of the run. A suite that fails to load counts as a failure, so a broken
// import can never look like a green run.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.file = join(globalConfig.rootDir, '.jest-results', 'summary.txt');
  }

  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped`;
    mkdirSync(join(this.file, '..'), { recursive: true });
    writeFileSync(this.file, `${line}\n`);
  }
}
module.exports = SummaryReporter;
