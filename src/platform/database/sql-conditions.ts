/**
 * A WHERE clause built one condition at a time, each value a numbered parameter: the first value
 * added is `$1`, so a later condition may name it again (a subquery on the same owner, say).
 */
export class SqlConditions {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds `condition(p)`, p being `value`'s placeholder. */
  add(condition: (placeholder: string) => string, value: unknown): this {
    this.params.push(value);
    this.conditions.push(condition(`$${this.params.length}`));
    return this;
  }

  /** The conditions joined with AND, and their values in placeholder order. */
  clause(): { where: string; params: unknown[] } {
    return { where: this.conditions.join(' AND '), params: this.params };
  }
}
