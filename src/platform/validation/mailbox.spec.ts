import { addressOf, MAX_MAILBOX_LENGTH, parseMailbox } from './mailbox';
import { leastCpuMsOf } from '../../../test/support/cpu-time';

describe(parseMailbox.name, () => {
  it.each([
    ['ada@example.com', '', 'ada@example.com'],
    ['".ada"@example.com', '', '".ada"@example.com'],
    ['Ada Lovelace <ada@example.com>', 'Ada Lovelace', 'ada@example.com'],
    ['"Lovelace, Ada" <ada@example.com>', 'Lovelace, Ada', 'ada@example.com'],
    ['"Say \\"hi\\"" <ada@example.com>', 'Say "hi"', 'ada@example.com'],
    ['Zoë Ünïcode <zoe@example.com>', 'Zoë Ünïcode', 'zoe@example.com'],
    ['Dr. Who <who@example.com>', 'Dr. Who', 'who@example.com'],
    ['<ada@example.com>', '', 'ada@example.com'],
    // The quotes of a quoted local part stay: nodemailer's parser would drop them.
    ['Ada <".ada"@example.com>', 'Ada', '".ada"@example.com'],
  ])('reads %s', (value, name, address) => {
    expect(parseMailbox(value)).toEqual({ name, address });
  });

  it.each([
    ['a name alone', 'Ada'],
    ['a list', 'a@example.com, b@example.com'],
    ['a list of mailboxes', 'Ada <a@example.com>, Bob <b@example.com>'],
    ['a group', 'team: a@example.com;'],
    ['a group before a mailbox', 'team: Ada <a@example.com>'],
    ['an unquoted comma', 'Lovelace, Ada <ada@example.com>'],
    ['an unclosed quote', '"Ada <ada@example.com>'],
    ['text after the address', 'Ada <ada@example.com> x'],
    ['a comment', 'Ada (c) <ada@example.com>'],
    ['an address for a name', 'a@example.com <b@example.com>'],
    ['a line break', 'Ada\r\n <ada@example.com>'],
    ['a bidi override', 'Ada\u202e <ada@example.com>'],
    ['an address the address rule refuses', 'Ada <ada@localhost>'],
    ['empty brackets', 'Ada <>'],
    ['not a string', 42],
  ])('refuses %s', (_case, value) => {
    expect(parseMailbox(value)).toBeUndefined();
  });

  it(`takes a mailbox of ${MAX_MAILBOX_LENGTH} characters and refuses one more`, () => {
    const of = (length: number) => `${'N'.repeat(length - ' <ada@example.com>'.length)} <ada@example.com>`;
    expect(parseMailbox(of(MAX_MAILBOX_LENGTH))?.address).toBe('ada@example.com');
    expect(parseMailbox(of(MAX_MAILBOX_LENGTH + 1))).toBeUndefined();
  });

  it('answers a string of 20 MiB (the body limit) at once', () => {
    const { cpuMs } = leastCpuMsOf(1500, () => {
      expect(parseMailbox(`${'<'.repeat(20 * 1024 * 1024)}a@example.com>`)).toBeUndefined();
    });
    // CPU time, not wall time: a busy machine does not make it fail, nor a collection of others' garbage (test/support/cpu-time.ts).
    expect(cpuMs).toBeLessThan(1500);
  });
});

describe(addressOf.name, () => {
  it('gives the address part of a mailbox, and anything else as it is', () => {
    expect(addressOf('"Lovelace, Ada" <Ada@Example.com>')).toBe('Ada@Example.com');
    expect(addressOf('not a mailbox')).toBe('not a mailbox');
  });
});
