// Prints one plain closing line ("vitest: N passed, N failed, N skipped") that
// CI log readers understand, after vitest's own report, and before it the slowest
// files with their time (import, set-up and tests): where `npm test`'s minutes go
// (issue 39), in every CI log.
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (mod.state() === "failed" && [...mod.children.allTests()].length === 0) failed++;
    }
    const timed = testModules
      .map((mod) => {
        const d = mod.diagnostic();
        return { file: mod.relativeModuleId, seconds: (d.collectDuration + d.setupDuration + d.prepareDuration + d.environmentSetupDuration + d.duration) / 1000 };
      })
      .sort((a, b) => b.seconds - a.seconds);
    const total = timed.reduce((sum, t) => sum + t.seconds, 0);
    if (timed.length > 1) {
      console.log(`\nslowest test files (${Math.round(total)} s in all ${timed.length} files):`);
      for (const t of timed.slice(0, 12)) console.log(`  ${t.seconds.toFixed(1).padStart(7)} s  ${t.file}`);
    }
    console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
