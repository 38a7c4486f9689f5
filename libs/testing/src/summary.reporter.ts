/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after Jest's own summary, so
 * tools that read a run's last line see what ran without parsing Jest's format.
 */
export default class SummaryReporter {
  onRunComplete(_contexts: unknown, results: { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }): void {
    process.stdout.write(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests + results.numTodoTests} skipped\n`);
  }
}
