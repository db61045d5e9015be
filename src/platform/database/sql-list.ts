/**
 * A list of the code's own constants as SQL string literals, `('a', 'b')`: the one spelling that
 * the @Check constraints, the migrations that created them and the statements share. Never for
 * input: a value with a quote is refused rather than escaped.
 */
export function sqlList(values: readonly string[]): string {
  return `(${sqlLiterals(values)})`;
}

/** The same literals without the parentheses, for an `ARRAY[...]`. */
export function sqlLiterals(values: readonly string[]): string {
  return values
    .map((value) => {
      if (value.includes("'")) throw new Error(`Not an SQL constant: ${value}`);
      return `'${value}'`;
    })
    .join(', ');
}

/** The check that `column` holds one of `values`, as the migrations wrote it: `column IN ('a', 'b')`. */
export const oneOf = (column: string, values: readonly string[]): string => `${column} IN ${sqlList(values)}`;
