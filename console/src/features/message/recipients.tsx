import type { Message } from '../../api/messages';
import { Moment } from '../../components/moment';
import { StatusBadge } from '../../components/status-badge';

/** Each recipient's own fate (SPEC §5) with the reply or reason that set it; suppressed ones named first. */
export function Recipients({ message }: { message: Message }) {
  const suppressed = message.recipients.filter((recipient) => recipient.status === 'suppressed');
  return (
    <section aria-labelledby="recipients-title" className="card">
      <h2 id="recipients-title">Recipients</h2>
      {suppressed.length > 0 && (
        <p className="inline-note">
          Not sent to {suppressed.map((recipient) => recipient.email).join(', ')}: on your suppression list.
        </p>
      )}
      <table className="table stack-on-narrow">
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Why</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {message.recipients.map((recipient) => (
            <tr key={`${recipient.type}:${recipient.email}`}>
              <td data-label="Address" className="wrap">
                {recipient.email}
              </td>
              <td data-label="Type">{recipient.type}</td>
              <td data-label="Status">
                <StatusBadge status={recipient.status} />
              </td>
              <td data-label="Why" className="wrap detail">
                {recipient.detail ?? <span className="muted">—</span>}
              </td>
              <td data-label="When">
                <Moment iso={recipient.at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
