// Sums vitest JSON reports into the closing line CI reads: "N passed, N failed".
// A missing report, or a run that failed with no failed test (a file that did not load), counts as a failure.
// Each failed test (and each file that failed without a failed test) is named above the closing line with the
// first lines of its message, so a run whose log is cut to its tail still says what failed. CI retries a failed
// test once (.ci/run): a test that passed only on its retry is named too, as FLAKY, with the message of the try
// that failed, and counted on a line of its own.
import { existsSync, readFileSync } from 'node:fs';

const MESSAGE_LINES = 6;

const firstLines = (text) =>
  String(text ?? '')
    .split('\n')
    .slice(0, MESSAGE_LINES)
    .map((line) => `      ${line}`)
    .join('\n');

const flakyIn = (file) => (file.assertionResults ?? []).filter((test) => test.status === 'passed' && (test.failureMessages ?? []).length > 0);

const failuresOf = (report) => {
  const lines = [];
  const name = (label, file, test) => lines.push(`  ${label} ${file.name} > ${test.fullName ?? test.title}`, firstLines((test.failureMessages ?? []).join('\n')));
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) name('FAILED', file, test);
    for (const test of flakyIn(file)) name('FLAKY (passed on its retry)', file, test);
    if (failedTests.length === 0 && file.status === 'failed') lines.push(`  FAILED ${file.name} (the file itself)`, firstLines(file.message));
  }
  return lines;
};

let passed = 0;
let flaky = 0;
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
  flaky += (report.testResults ?? []).reduce((n, file) => n + flakyIn(file).length, 0);
  const failures = failuresOf(report);
  if (failures.length > 0) console.log(`failed or retried in ${file}:\n${failures.join('\n')}`);
}
if (flaky > 0) console.log(`${flaky} passed only on their retry (named FLAKY above)`);
console.log(`${passed} passed, ${failed} failed`);
