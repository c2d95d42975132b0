// Sums vitest JSON reports into the closing line CI reads: "N passed, N failed".
// A missing report, or a run that failed with no failed test (a file that did not load), counts as a failure.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`missing report ${file}: counted as one failure`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  if (report.success === false && (report.numFailedTests ?? 0) === 0) failed += Math.max(1, report.numFailedTestSuites ?? 0);
}
console.log(`${passed} passed, ${failed} failed`);
