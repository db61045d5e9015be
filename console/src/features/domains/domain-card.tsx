import { usePermission } from '../../api/caller';
import { useDeleteDomain, useVerifyDomain, type DnsRecord, type Domain } from '../../api/domains';
import { ActionButton } from '../../components/action-button';
import { ConfirmButton } from '../../components/confirm-button';
import { CopyButton } from '../../components/copy-button';
import { Moment } from '../../components/moment';
import { InlineError } from '../../components/states';
import { StatusBadge } from '../../components/status-badge';
import { HostName } from '../../components/host-name';
import { Cell, Table } from '../../components/table';
import { ReceivingToggle } from './receiving-toggle';

export function DomainCard({ domain }: { domain: Domain }) {
  const verify = useVerifyDomain();
  const remove = useDeleteDomain();
  const canSend = usePermission('send');
  const verification = verify.data?.id === domain.id ? verify.data : undefined;
  const titleId = `domain-${domain.id}`;
  return (
    <article className="card domain" aria-labelledby={titleId}>
      <header className="page-header">
        <h2 id={titleId} className="wrap">
          {domain.name}
        </h2>
        <StatusBadge status={domain.status} />
        {domain.verifiedAt && (
          <span className="muted small">
            verified <Moment iso={domain.verifiedAt} />
          </span>
        )}
        <ActionButton permission={canSend} pending={verify.isPending} onClick={() => verify.mutate(domain.id)}>
          {verify.isPending ? 'Checking DNS…' : 'Verify'}
        </ActionButton>
        <ConfirmButton
          permission={canSend}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(domain.id)}
          question={`Delete ${domain.name}? Its DKIM key is gone for good.`}
        >
          Delete
        </ConfirmButton>
      </header>
      <InlineError error={verify.error ?? remove.error} />
      <ReceivingToggle domain={domain} />
      {verification && (
        <div role="status" className={verification.status === 'verified' ? 'inline-success' : 'inline-note'}>
          {verification.status === 'verified' ? (
            <p>Verified: the DKIM record was found.</p>
          ) : (
            <p>
              Still pending:{' '}
              {verification.missing.length === 1
                ? 'a required record was'
                : `${verification.missing.length} required records were`}{' '}
              not found.
            </p>
          )}
          {verification.missing.length > 0 && (
            <ul className="missing">
              {verification.missing.map((record) => (
                <li key={record.name}>
                  <strong>{record.purpose.toUpperCase()}</strong>: {record.reason}
                </li>
              ))}
            </ul>
          )}
          {verification.recommended.length > 0 && (
            <>
              <p className="small">Recommended, not required:</p>
              <ul className="missing small">
                {verification.recommended.map((record) => (
                  <li key={record.name}>
                    <strong>{record.purpose.toUpperCase()}</strong>: {record.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <h3>DNS records to publish</h3>
      <Table columns={['Purpose', 'Type', 'Host', 'Value']}>
        {domain.dnsRecords.map((record) => (
          <Record key={`${record.purpose}:${record.name}`} record={record} />
        ))}
      </Table>
    </article>
  );
}

function Record({ record }: { record: DnsRecord }) {
  return (
    <tr>
      <Cell label="Purpose">
        {record.purpose.toUpperCase()} {!record.required && <span className="muted small">(recommended)</span>}
      </Cell>
      <Cell label="Type">{record.type}</Cell>
      <Cell label="Host">
        {/* One element: a narrow screen lays a cell's children side by side, squeezing the name. */}
        <span>
          <HostName name={record.name} /> <CopyButton value={record.name} label={`${record.purpose} host`} />
        </span>
      </Cell>
      <Cell label="Value">
        <code className="wrap record-value">{record.value}</code>{' '}
        <CopyButton value={record.value} label={`${record.purpose} value`} />
      </Cell>
    </tr>
  );
}
