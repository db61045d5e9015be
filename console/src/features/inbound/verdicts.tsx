import type { InboundMail, Verdict } from '../../api/inbound';

/** Each result of SPEC §13's verifier in words; the word the API uses stays beside it. */
const MEANING: Record<Verdict, string> = {
  pass: 'passed',
  fail: 'failed',
  softfail: 'soft fail: probably not authorized, not refused outright',
  neutral: 'neutral: the domain makes no statement',
  none: 'none: nothing to check (no record or no signature)',
  temperror: 'temporary error: a DNS lookup failed, a later check may pass',
  permerror: 'permanent error: the record is broken',
};

const CHECKS = [
  ['spf', 'SPF', 'the connecting server may send for the envelope sender’s domain'],
  ['dkim', 'DKIM', 'a signature of the mail verifies'],
  ['dmarc', 'DMARC', 'the From domain’s policy is met by an aligned SPF or DKIM pass'],
] as const;

/** SPF, DKIM and DMARC of a received mail; nothing was refused for them (SPEC §13). */
export function Verdicts({ authentication }: { authentication: InboundMail['authentication'] }) {
  return (
    <section aria-labelledby="verdicts-title" className="card">
      <h2 id="verdicts-title">Authentication</h2>
      <dl className="fields">
        {CHECKS.map(([key, name, question]) => (
          <div key={key} className="field">
            <dt>{name}</dt>
            <dd>
              <span className={`badge badge-verdict-${authentication[key]}`}>{authentication[key]}</span>{' '}
              {MEANING[authentication[key]]} <span className="muted small">({question})</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
