import { remembered } from './remembered';

describe('remembered', () => {
  it('answers a value it judged from memory, and judges again once it was forgotten', () => {
    const judged: string[] = [];
    const length = remembered(
      (value: string) => {
        judged.push(value);
        return value.length;
      },
      2,
      10,
    );
    expect([length('a'), length('bb'), length('a'), length('bb')]).toEqual([1, 2, 1, 2]);
    expect(judged).toEqual(['a', 'bb']);
    // A third value makes room by forgetting the oldest, 'a'.
    expect(length('ccc')).toBe(3);
    expect(length('bb')).toBe(2);
    expect(length('a')).toBe(1);
    expect(judged).toEqual(['a', 'bb', 'ccc', 'a']);
  });

  it('judges a value that UTF-8 cannot carry (a lone surrogate) as given, every time', () => {
    const judged: string[] = [];
    const same = remembered(
      (value: string) => {
        judged.push(value);
        return value;
      },
      4,
      10,
    );
    expect([same('a\ud800'), same('a\ud800')]).toEqual(['a\ud800', 'a\ud800']);
    expect(judged).toEqual(['a\ud800', 'a\ud800']);
  });

  it('never remembers a value longer than its bound', () => {
    const judged: string[] = [];
    const upper = remembered(
      (value: string) => {
        judged.push(value);
        return value.toUpperCase();
      },
      4,
      3,
    );
    expect([upper('abcd'), upper('abcd'), upper('abc'), upper('abc')]).toEqual(['ABCD', 'ABCD', 'ABC', 'ABC']);
    expect(judged).toEqual(['abcd', 'abcd', 'abc']);
  });
});
