import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePermission } from '../../api/caller';
import { useRemoveSuppression, useSuppressions, type Suppression } from '../../api/suppressions';
import { ConfirmButton } from '../../components/confirm-button';
import { Address } from '../../components/address';
import { Moment } from '../../components/moment';
import { Pager } from '../../components/pager';
import { QueryView } from '../../components/query-view';
import { Empty, InlineError } from '../../components/states';
import { AddSuppressionForm } from './add-suppression-form';
import { Cell, Table } from '../../components/table';

/** The suppression list (docs/api.md#routes, docs/delivery-and-deliverability.md): search by address, add, remove; the search is in the URL. */
export function SuppressionsPage() {
  const [params, setParams] = useSearchParams();
  const email = params.get('email') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useSuppressions(email, page);
  const [draft, setDraft] = useState(email);
  const show = (nextEmail: string, nextPage: number) => {
    const next = new URLSearchParams();
    if (nextEmail) next.set('email', nextEmail);
    if (nextPage > 1) next.set('page', String(nextPage));
    setParams(next);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    show(draft.trim(), 1);
  };

  return (
    <section aria-labelledby="suppressions-title">
      <h1 id="suppressions-title">Suppressions</h1>
      <p className="muted">Addresses no mail goes to (or, for unsubscribes, no bulk mail).</p>
      <AddSuppressionForm />
      <form className="card inline-form" role="search" onSubmit={search} aria-label="Search suppressions">
        <label htmlFor="suppression-search">Find a suppressed address</label>
        <input
          id="suppression-search"
          type="search"
          name="email"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="someone@example.com"
          aria-describedby="suppression-search-hint"
        />
        <button type="submit">Search</button>
        {/* The API filters by the exact address (docs/delivery-and-deliverability.md); part of one is refused, not matched. */}
        <span id="suppression-search-hint" className="inline-note">
          A whole address: the search finds that address only.
        </span>
      </form>
      <QueryView query={query} what="suppressions" inputTitle="Check the search">
        {(result) =>
          result.suppressions.length === 0 ? (
            <Empty title={email ? `${email} is not suppressed` : 'No suppressed addresses'}>
              {email ? 'Mail to it is delivered.' : 'Hard bounces, complaints and unsubscribes land here.'}
            </Empty>
          ) : (
            <>
              <Table columns={['Address', 'Reason', 'Stops', 'Since', 'Caused by', '']}>
                {result.suppressions.map((entry) => (
                  <Row key={entry.email} entry={entry} />
                ))}
              </Table>
              <Pager of={result} noun="addresses" one="address" onPage={(next) => show(email, next)} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function Row({ entry }: { entry: Suppression }) {
  const remove = useRemoveSuppression();
  const canSend = usePermission('send');
  return (
    <tr>
      <Cell label="Address" wrap>
        <Address value={entry.email} />
      </Cell>
      <Cell label="Reason">{entry.reason.replace('_', ' ')}</Cell>
      <Cell label="Stops">{entry.scope === 'all' ? 'all mail' : 'bulk mail'}</Cell>
      <Cell label="Since">
        <Moment iso={entry.createdAt} />
      </Cell>
      <Cell label="Caused by">
        {/* The bounce, complaint or unsubscribe came about this message; a manual entry has none. */}
        {entry.messageId ? (
          <Link to={`/messages/${entry.messageId}`} aria-label={`Message that suppressed ${entry.email}`}>
            Message
          </Link>
        ) : (
          <span className="muted">{entry.reason === 'manual' ? 'Added by hand' : 'Not recorded'}</span>
        )}
      </Cell>
      <Cell label="Actions">
        <ConfirmButton
          permission={canSend}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(entry.email)}
          question={`Remove ${entry.email}? Mail to it is sent again.`}
        >
          Remove
        </ConfirmButton>
        <InlineError error={remove.error} />
      </Cell>
    </tr>
  );
}
