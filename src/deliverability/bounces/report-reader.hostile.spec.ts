import { MAX_REPORT_BYTES, readReports } from './report-reader';

// Input shaped to make a parser slow (quadratic folding, endless words, address floods), each as
// long as a report may be: every one must be answered, and within jest's timeout.
const fill = (head: string, unit: string, tail = ''): Buffer => {
  const room = MAX_REPORT_BYTES - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return Buffer.from(head + unit.repeat(Math.floor(room / unit.length)) + tail);
};
const dsnHead =
  'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\n' +
  'Final-Recipient: rfc822; a@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550\r\n';

describe('readReports on hostile input of the largest size read', () => {
  it.each([
    ['a top-level header folded over a megabyte', fill('Subject: x\r\n', ' y\r\n', '\r\nbody'), 'unrecognized'],
    ['a Diagnostic-Code folded over a megabyte', fill(dsnHead, ' 4.2.2 mailbox full\r\n', '\r\n--b--\r\n'), 'soft'],
    [
      'a bounce text of one endless word',
      fill('Subject: failure notice\r\n\r\nThis is a permanent error.\r\n', 'a', '@'),
      'soft',
    ],
    [
      'a bounce text of dots before an @',
      fill('Subject: failure notice\r\n\r\nThis is a permanent error.\r\n', '.', '@x'),
      'soft',
    ],
    [
      'a line of a hundred thousand addresses',
      fill('Subject: failure notice\r\n\r\nThis is a permanent error.\r\n', 'x@example.org '),
      'soft',
    ],
    ['a flood of field lines', fill(dsnHead, 'X-A: 1\r\n', '\r\n--b--\r\n'), 'bounce'],
  ])('answers %s', async (_, raw, kind) => {
    expect(raw.length).toBeLessThanOrEqual(MAX_REPORT_BYTES);
    expect(raw.length).toBeGreaterThan(MAX_REPORT_BYTES - 64);
    const reports = await readReports(raw);
    expect(reports.map((report) => report.kind)).toEqual([kind]);
  });

  it('reads at most a hundred recipients from one bounce text', async () => {
    const lines = Array.from(
      { length: 5000 },
      (_, index) => `<user${index}@example.org>:\r\nSorry, no mailbox here by that name. (#5.1.1)\r\n\r\n`,
    );
    const raw = Buffer.from(`Subject: failure notice\r\n\r\nThis is a permanent error.\r\n\r\n${lines.join('')}`);
    const reports = await readReports(raw);
    expect(reports).toHaveLength(100);
    expect(reports[99]).toEqual(
      expect.objectContaining({ kind: 'bounce', recipient: 'user99@example.org', status: '5.1.1' }),
    );
  });
});
