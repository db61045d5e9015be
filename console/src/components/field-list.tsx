import type { ReactNode } from 'react';

/** A record's fields as a card of name/value pairs; a row whose value is null or undefined is left out. */
export function FieldList({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="fields card">
      {rows
        .filter(([, value]) => value !== null && value !== undefined)
        .map(([name, value]) => (
          <div key={name} className="field">
            <dt>{name}</dt>
            <dd className="wrap">{value}</dd>
          </div>
        ))}
    </dl>
  );
}
