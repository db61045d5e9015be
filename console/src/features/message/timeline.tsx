import type { Message } from '../../api/messages';
import { Moment } from '../../components/moment';
import { StatusBadge } from '../../components/status-badge';
import { NextAttempt } from './next-attempt';

/** The status history, oldest first, each change with its SMTP reply or reason (docs/delivery-and-deliverability.md#statuses). */
export function Timeline({ message }: { message: Message }) {
  const history = message.statusHistory ?? [];
  const deferrals = history.filter((entry) => entry.status === 'deferred' && !entry.recipient).length;
  return (
    <section aria-labelledby="timeline-title" className="card">
      <h2 id="timeline-title">Timeline</h2>
      {message.status === 'deferred' && (
        <p className="inline-note">
          Deferred {deferrals} {deferrals === 1 ? 'time' : 'times'}: the server refused it for now, and it is tried
          again on the service's retry schedule until it is accepted or the retries run out.{' '}
          {message.nextAttemptAt && <NextAttempt iso={message.nextAttemptAt} />}
        </p>
      )}
      <ol className="timeline">
        {history.map((entry, index) => (
          <li key={index}>
            <div className="timeline-head">
              <StatusBadge status={entry.status} />
              {entry.recipient && <span className="wrap">{entry.recipient}</span>}
              <Moment iso={entry.at} />
            </div>
            {entry.detail && <pre className="detail">{entry.detail}</pre>}
          </li>
        ))}
      </ol>
    </section>
  );
}
