import type { ReactNode } from 'react';

/**
 * A table whose rows become labelled cards on a narrow screen (styles/components.css, stack-on-narrow):
 * each Cell carries its column's name for that. An empty column name is a column of actions.
 */
export function Table({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <table className="table stack-on-narrow">
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column || <span className="visually-hidden">Actions</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

export function Cell({ label, wrap, children }: { label: string; wrap?: boolean; children: ReactNode }) {
  return (
    <td data-label={label} className={wrap ? 'wrap' : undefined}>
      {children}
    </td>
  );
}
