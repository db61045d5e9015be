import { useState, type FormEvent } from 'react';
import { usePermission } from '../../api/caller';
import { useAddDomain, useDomains } from '../../api/domains';
import { ActionButton } from '../../components/action-button';
import { QueryView } from '../../components/query-view';
import { Empty, InlineError } from '../../components/states';
import { DomainCard } from './domain-card';

/** Sending domains (docs/delivery-and-deliverability.md): add one, publish its records, verify, receive (docs/inbound.md), delete. */
export function DomainsPage() {
  const query = useDomains();
  return (
    <section aria-labelledby="domains-title">
      <h1 id="domains-title">Domains</h1>
      <p className="muted">
        Mail from a verified domain is signed with its DKIM key; a verified domain can also receive mail.
      </p>
      <AddDomain />
      <QueryView query={query} what="domains">
        {({ domains }) =>
          domains.length === 0 ? (
            <Empty title="No domains yet">Add the domain you send from, then publish its DNS records.</Empty>
          ) : (
            domains.map((domain) => <DomainCard key={domain.id} domain={domain} />)
          )
        }
      </QueryView>
    </section>
  );
}

function AddDomain() {
  const [name, setName] = useState('');
  const add = useAddDomain();
  const canSend = usePermission('send');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim(), { onSuccess: () => setName('') });
  };
  return (
    <form className="card inline-form" onSubmit={submit} aria-label="Add a domain">
      <label htmlFor="domain-name">Domain</label>
      <input
        id="domain-name"
        name="name"
        placeholder="example.com"
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        disabled={!canSend.allowed}
      />
      <ActionButton type="submit" className="primary" permission={canSend} pending={add.isPending}>
        Add domain
      </ActionButton>
      <InlineError error={add.error} />
    </form>
  );
}
