import { defineConfig } from 'vitest/config';

// Pure tests: no database, no server, no child process. Listed by name, so that a new file lands in integration
// (the safe side for setup) until someone decides it is pure.
const UNIT = [
  'test/auth/throttle.test.ts',
  'test/http/json-scan.test.ts',
  'test/cli/eval.test.ts',
  'test/cli/convert.test.ts',
  'test/db/lookup-batcher.test.ts',
  'test/detections/rejection-list.test.ts',
  'test/evaluation/**/*.test.ts',
  'test/formats/**/*.test.ts',
  'test/detections/run-codec.test.ts',
  'test/detections/run-delta.test.ts',
  'test/detections/run-segments.test.ts',
  'test/detections/run-json-parser.test.ts',
  'test/detections/run-json-writer.test.ts',
  'test/detections/run-write-batch.test.ts',
  'test/detections/run-write-queue.test.ts',
  'test/detections/validate-run.test.ts',
  'test/http/json-chunks.test.ts',
  'test/http/utf8-marked.test.ts',
  'test/recordings/region.test.ts',
  'test/recordings/search-point-rows.test.ts',
  'test/search/*.test.ts',
  'test/storage/core.test.ts',
  'test/storage/fs-upload-parts.test.ts',
  'test/storage/hmac-sha256.test.ts',
  'test/storage/sdk-vectors.test.ts',
  'test/storage/sigv4-signer.test.ts',
  'test/storage/url-shortcuts.test.ts',
  'test/util/decimal-text.test.ts',
  'test/util/ids.test.ts',
  'test/util/json-shape.test.ts',
  'test/util/fair-turns.test.ts',
  'test/util/byte-budget.test.ts',
  'test/web/editor-core.test.ts',
  'test/web/run-files.test.ts',
  'test/web/compare-core.test.ts',
  'test/web/editor-edits.test.ts',
  'test/web/frame-index-update.test.ts',
  'test/web/timeline-rows.test.ts',
];

// Files that spawn processes: the built binary (serve, demo, several CLIs at once), azurite, a V8 probe.
const E2E = [
  'test/cli/binary.test.ts',
  'test/cli/help.test.ts',
  'test/client/package.test.ts',
  'test/db/migrate.test.ts',
  'test/db/pg-resilience.test.ts',
  'test/detections/body-budget.test.ts',
  'test/detections/crash-safety.test.ts',
  'test/evaluation-routes/resume.test.ts',
  'test/http/logging.test.ts',
  'test/http/shutdown.test.ts',
  'test/http/tick-shape.test.ts',
  'test/retention/sweeper.test.ts',
  'test/storage/azurite.test.ts',
  'test/storage/streaming.test.ts',
];

const BROWSER = ['test/web/*.browser.test.ts'];

// Fail fast: a test that needs more than this under load is slow for a reason worth finding, not waiting out.
const timeouts = { testTimeout: 20_000, hookTimeout: 20_000 };

export default defineConfig({
  test: {
    // The whole run's setup (the PostgreSQL schemas it made are dropped once, at its end); projects add their own.
    globalSetup: ['test/support/global-setup.ts'],
    // Server and database tests do real I/O; two cores means keep the pool small.
    maxWorkers: 2,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'html'],
      reportsDirectory: 'coverage',
    },
    projects: [
      { test: { name: 'unit', include: UNIT, ...timeouts } },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...E2E, ...BROWSER],
          ...timeouts,
        },
      },
      {
        test: {
          name: 'e2e',
          include: E2E,
          globalSetup: ['test/support/build-setup.ts'],
          // A spawned server's start is a Node start: seconds when the machine is busy.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      { test: { name: 'browser', include: BROWSER, globalSetup: ['test/support/browser-setup.ts'], ...timeouts } },
    ],
  },
});
