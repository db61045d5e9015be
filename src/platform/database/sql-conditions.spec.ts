import { SqlConditions } from './sql-conditions';

describe('SqlConditions', () => {
  it('numbers each value in the order added and joins the conditions with AND', () => {
    const conditions = new SqlConditions()
      .add((p) => `m.user_id = ${p}`, 'ada')
      .add((p) => `m.sent_at >= ${p}`, '2026-01-01')
      .add((p) => `EXISTS (SELECT 1 FROM r WHERE r.user_id = $1 AND r.email = ${p})`, 'b@example.com');

    expect(conditions.clause()).toEqual({
      where: 'm.user_id = $1 AND m.sent_at >= $2 AND EXISTS (SELECT 1 FROM r WHERE r.user_id = $1 AND r.email = $3)',
      params: ['ada', '2026-01-01', 'b@example.com'],
    });
  });

  it('keeps a value as it is, never spliced into the SQL', () => {
    const { where, params } = new SqlConditions().add((p) => `m.subject = ${p}`, "x' OR '1'='1").clause();
    expect(where).toBe('m.subject = $1');
    expect(params).toEqual(["x' OR '1'='1"]);
  });
});
