// With CARAVAN_TEST_COUNTS set (deploy/local/test.mjs), every jest run appends its counts to that file as one
// JSON line: `npm test` adds up the lerna-scoped runs of the packages' own `npm test`.
const fs = require('node:fs');

class CountsReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = JSON.stringify({ passed: results.numPassedTests, failed });
    fs.appendFileSync(process.env.CARAVAN_TEST_COUNTS, `${line}\n`);
  }
}
module.exports = CountsReporter;
