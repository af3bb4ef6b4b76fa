// `npm test`: unit, integration (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set) and
// end-to-end tests in Debian's Chromium against the built server. Ends with one summary line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './build-state.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-test-report-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** The failed tests, named again at the very end so that a truncated log still shows them. */
const failures = [];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
    ...options,
  });
  return result.status ?? 1;
}

function vitest(projects, label) {
  const report = path.join(reportDir, `${label}.json`);
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  const status = run('npx', args);
  if (fs.existsSync(report)) {
    const data = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += data.numPassedTests ?? 0;
    totals.failed += data.numFailedTests ?? 0;
    totals.skipped += (data.numPendingTests ?? 0) + (data.numTodoTests ?? 0);
    for (const file of data.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const test of failedTests) {
        const message = String(test.failureMessages?.[0] ?? '').split('\n')[0];
        failures.push(`${path.relative(root, file.name)} > ${test.fullName}: ${message}`);
      }
      if (failedTests.length === 0 && file.status === 'failed') {
        failures.push(
          `${path.relative(root, file.name)}: ${String(file.message ?? '').split('\n')[0]}`,
        );
      }
    }
    if ((data.numTotalTests ?? 0) === 0) {
      console.error(`fleetdeck: the ${label} tests ran no test.`);
      return 1;
    }
  } else if (status === 0) {
    return 1;
  }
  return status;
}

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log(
      "Chromium is missing: installing Debian's chromium package for the end-to-end tests...",
    );
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (fs.existsSync(CHROMIUM)) return true;
  }
  console.error(
    `fleetdeck: Chromium not found at ${CHROMIUM}: install it (sudo apt-get install chromium) or set CHROMIUM_PATH.`,
  );
  return false;
}

let failed = false;
const dialects = process.env.TEST_DATABASE_URL
  ? 'SQLite and PostgreSQL'
  : 'SQLite (set TEST_DATABASE_URL for PostgreSQL too)';
console.log(`\n== unit and integration tests on ${dialects}`);
if (vitest(['unit', 'integration'], 'unit-integration') !== 0) failed = true;

console.log('\n== build');
if (run('npm', ['run', 'build']) !== 0) {
  console.error('fleetdeck: the build failed.');
  failed = true;
} else if (!ensureChromium()) {
  failed = true;
} else {
  console.log('\n== end-to-end tests in Chromium');
  if (vitest(['e2e'], 'e2e') !== 0) failed = true;
}

fs.rmSync(reportDir, { recursive: true, force: true });
if (failures.length > 0) {
  console.log('\nfailed:');
  for (const failure of failures) console.log(`  ${failure.slice(0, 400)}`);
}
console.log(
  `\nfleetdeck tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(failed || totals.failed > 0 ? 1 : 0);
