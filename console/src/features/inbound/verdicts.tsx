import type { InboundMail, Verdict } from '../../api/inbound';

type Check = 'spf' | 'dkim' | 'dmarc';

/**
 * Each result of docs/inbound.md's verifier in plain words, claiming no more than the check shows: an SPF
 * pass is about the server and the envelope's domain, not the From address; a DKIM pass is about a
 * signer, which may be another domain than the From address's; only DMARC ties a result to the
 * From domain. The word the API uses stays beside it.
 */
const MEANING: Record<Check, Partial<Record<Verdict, string>>> = {
  spf: {
    pass: 'The server that delivered it may send for the envelope sender’s domain. This says nothing about the From address.',
    fail: 'The envelope sender’s domain says the server that delivered it may not send for it.',
    softfail: 'The envelope sender’s domain says the server that delivered it is probably not one of its own.',
    neutral: 'The envelope sender’s domain says nothing either way about the server that delivered it.',
    none: 'The envelope sender’s domain publishes no SPF record: nothing to check.',
  },
  dkim: {
    pass: 'A signature verifies: its signing domain vouches that the signed parts were not changed. The signer need not be the From address’s domain.',
    fail: 'A signature is there but does not verify: the mail was changed on its way, or the signature is not genuine.',
    neutral: 'A signature is there but could not be judged.',
    none: 'The mail is not signed: nothing to check.',
  },
  dmarc: {
    pass: 'The From address’s domain is confirmed: SPF or DKIM passed for that same domain.',
    fail: 'The From address’s domain is not confirmed: neither SPF nor DKIM passed for it. The From address may be forged.',
    none: 'The From address’s domain publishes no DMARC policy: nothing to check.',
  },
};

/** Results every check shares. */
const ANY: Partial<Record<Verdict, string>> = {
  temperror: 'Not checked: a DNS lookup failed at the time; a later check may pass.',
  permerror: 'Not checked: the domain’s record (or the signature) is malformed.',
  neutral: 'No conclusion either way.',
  softfail: 'Probably not authorized, but not refused outright.',
};

const CHECKS = [
  ['spf', 'SPF'],
  ['dkim', 'DKIM'],
  ['dmarc', 'DMARC'],
] as const;

/** SPF, DKIM and DMARC of a received mail; nothing was refused for them (docs/inbound.md). */
export function Verdicts({ authentication }: { authentication: InboundMail['authentication'] }) {
  return (
    <section aria-labelledby="verdicts-title" className="card">
      <h2 id="verdicts-title">Authentication</h2>
      <p className="muted small">Checked when the mail arrived; it was kept whatever the results.</p>
      <dl className="fields">
        {CHECKS.map(([key, name]) => {
          const verdict = authentication[key];
          return (
            <div key={key} className="field">
              <dt>{name}</dt>
              <dd>
                <span className={`badge badge-verdict-${verdict}`}>{verdict}</span>{' '}
                {MEANING[key][verdict] ?? ANY[verdict] ?? verdict}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
