/**
 * A DNS name that may break only after a dot (`<wbr>`), so a long host wraps between labels
 * rather than mid-word; a single label longer than the cell still wraps (overflow-wrap).
 */
export function HostName({ name }: { name: string }) {
  const labels = name.split('.');
  return (
    <code className="host-name">
      {labels.map((label, index) => (
        <span key={index}>
          {label}
          {index < labels.length - 1 && (
            <>
              .<wbr />
            </>
          )}
        </span>
      ))}
    </code>
  );
}
