import { generateKeyPairSync } from 'node:crypto';
import { dkimRecord, MAX_KEY_RECORD_BYTES, parseTagList, publishesKey } from './dkim-record';

const publicKeyOf = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');

describe(publishesKey.name, () => {
  const ours = publicKeyOf();

  it('finds our key in the record we tell users to publish', () => {
    expect(publishesKey(dkimRecord(ours), ours)).toBe(true);
  });

  it('reads the record as a tag list: any order after v, white space around tags and inside the key, a final semicolon', () => {
    const folded = ours.replace(/(.{60})/g, '$1 \t');
    expect(publishesKey(`v=DKIM1;p=${ours}`, ours)).toBe(true);
    expect(publishesKey(`v = DKIM1 ; p= ${folded} ; k =rsa; t=s;`, ours)).toBe(true);
    expect(publishesKey(`k=rsa; p=${ours}; h=sha256`, ours)).toBe(true);
  });

  it.each([
    ['another key', () => dkimRecord(publicKeyOf())],
    ['a key cut short', () => dkimRecord(ours.slice(0, -4))],
    ['no p tag', () => 'v=DKIM1; k=rsa'],
    ['an empty p (a revoked key)', () => 'v=DKIM1; k=rsa; p='],
    ['v not first', () => `k=rsa; v=DKIM1; p=${ours}`],
    ['another version', () => `v=DKIM2; p=${ours}`],
    ['another key type', () => `v=DKIM1; k=ed25519; p=${ours}`],
    ['a duplicate tag', () => `v=DKIM1; p=${ours}; p=${ours}`],
    ['a spec without "="', () => `v=DKIM1; rsa; p=${ours}`],
    ['an SPF record', () => 'v=spf1 include:example.com ~all'],
  ])('does not find our key in a record with %s', (_, record) => {
    expect(publishesKey(record(), ours)).toBe(false);
  });

  it(`reads a record of ${MAX_KEY_RECORD_BYTES} bytes and not one byte more`, () => {
    const record = dkimRecord(ours) + '; n=';
    const atLimit = record + 'x'.repeat(MAX_KEY_RECORD_BYTES - Buffer.byteLength(record));

    expect(Buffer.byteLength(atLimit)).toBe(MAX_KEY_RECORD_BYTES);
    expect(publishesKey(atLimit, ours)).toBe(true);
    expect(publishesKey(atLimit + 'x', ours)).toBe(false);
  });
});

describe(parseTagList.name, () => {
  it('maps tags to values and refuses what RFC 6376 §3.2 does not allow', () => {
    expect(parseTagList('a=1; b_2 = x y ;')).toEqual(
      new Map([
        ['a', '1'],
        ['b_2', 'x y'],
      ]),
    );
    expect(parseTagList('1a=x')).toBeUndefined();
    expect(parseTagList('a=x;;b=y')).toBeUndefined();
    expect(parseTagList('a=\u00e9')).toBeUndefined();
  });
});
