import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { addressKey, asciiAddressKey, asciiDomain, domainOf } from './addresses';

const SRC = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('addresses', () => {
  it('keys an address by lower-casing it as JavaScript does, İ included', () => {
    expect(addressKey('Ada.Lovelace@Example.COM')).toBe('ada.lovelace@example.com');
    expect(addressKey('İrem@bücher.example')).toBe('i̇rem@bücher.example');
  });

  it('takes the domain after the last @, a quoted local part holding one', () => {
    expect(domainOf('"a@b"@Bücher.example')).toBe('Bücher.example');
  });

  it('writes a domain in lower-case A-labels, and refuses what UTS #46 refuses', () => {
    expect(asciiDomain('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(asciiDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(asciiDomain('a\u0000b.example')).toBe('');
  });

  it("puts an address key's domain in A-labels, keeping the local part and a refused domain as written", () => {
    expect(asciiAddressKey('Ada@bücher.example')).toBe('Ada@xn--bcher-kva.example');
    expect(asciiAddressKey('"a@b"@bücher.example')).toBe('"a@b"@xn--bcher-kva.example');
    expect(asciiAddressKey('ada@a\u0000b.example')).toBe('ada@a\u0000b.example');
  });

  it('is the only module of src/ that maps domains to A-labels itself', () => {
    const others = sourceFiles(SRC)
      .filter((file) => file !== join(__dirname, 'addresses.ts'))
      .filter((file) => /import\s*{[^}]*\b(domainToASCII|toASCII)\b[^}]*}\s*from/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(others).toEqual([]);
  });
});
