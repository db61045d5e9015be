import { oneOf, sqlList, sqlLiterals } from './sql-list';

describe('sqlList', () => {
  it('quotes each value and separates them as the migrations wrote them', () => {
    expect(sqlList(['low', 'normal', 'high'])).toBe(`('low', 'normal', 'high')`);
    expect(oneOf('priority', ['low', 'normal', 'high'])).toBe(`priority IN ('low', 'normal', 'high')`);
    expect(`ARRAY[${sqlLiterals(['send', 'read'])}]`).toBe(`ARRAY['send', 'read']`);
  });

  it('refuses a value it would have to escape', () => {
    expect(() => sqlList(['ok', "o'clock"])).toThrow(/Not an SQL constant/);
    expect(() => sqlLiterals(["'; DROP TABLE messages; --"])).toThrow(/Not an SQL constant/);
  });
});
