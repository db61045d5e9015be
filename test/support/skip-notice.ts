/**
 * Says why tests are skipped, straight to stderr: jest prints no console output of a file whose
 * tests are all skipped, which is what a missing browser does to a browser test file.
 */
export function noticeSkip(line: string): void {
  process.stderr.write(`${line}\n`);
}
