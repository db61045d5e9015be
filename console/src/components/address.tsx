import { Fragment } from 'react';

/**
 * An address or mailbox (`Ada <ada@example.com>`) as text that may break after its `@` and before
 * its dots (`<wbr>`), so a long one wraps at those points rather than between any two characters;
 * a part wider than its place still wraps (the cell's overflow-wrap). Display only: no parsing.
 */
export function Address({ value }: { value: string }) {
  const parts = value.split(/(?<=@)|(?=\.)/);
  return (
    <span className="address">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/** Several, comma-separated, each breaking as Address does and lines breaking first between them. */
export function Addresses({ values }: { values: readonly string[] }) {
  return (
    <span>
      {values.map((value, index) => (
        <Fragment key={index}>
          {index > 0 && ', '}
          <Address value={value} />
        </Fragment>
      ))}
    </span>
  );
}
