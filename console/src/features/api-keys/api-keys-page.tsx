import { usePermission } from '../../api/caller';
import { useApiKeys, useDeleteApiKey, type ApiKey } from '../../api/api-keys';
import { ConfirmButton } from '../../components/confirm-button';
import { Moment } from '../../components/moment';
import { QueryView } from '../../components/query-view';
import { Empty, InlineError, NotAllowed } from '../../components/states';
import { CreateKeyForm } from './create-key-form';
import { Cell, Table } from '../../components/table';

/** API keys (docs/api.md#smtp-submission): create with scopes (the key shown once), list, delete. */
export function ApiKeysPage() {
  const canManage = usePermission('keys');
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {canManage.allowed ? <KeysView /> : <NotAllowed detail={canManage.reason ?? ''} />}
    </section>
  );
}

function KeysView() {
  const query = useApiKeys();
  return (
    <>
      <CreateKeyForm />
      <QueryView query={query} what="API keys">
        {({ apiKeys }) =>
          apiKeys.length === 0 ? (
            <Empty title="No API keys yet">Create one for each app or server that sends mail.</Empty>
          ) : (
            <Table columns={['Name', 'Key', 'Scopes', 'Created', 'Last used', '']}>
              {apiKeys.map((key) => (
                <KeyRow key={key.id} apiKey={key} />
              ))}
            </Table>
          )
        }
      </QueryView>
    </>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const remove = useDeleteApiKey();
  const canManage = usePermission('keys');
  return (
    <tr>
      <Cell label="Name" wrap>
        {apiKey.name}
      </Cell>
      <Cell label="Key">{apiKey.prefix ? <code>{apiKey.prefix}…</code> : <span className="muted">—</span>}</Cell>
      <Cell label="Scopes">{apiKey.scopes.join(', ')}</Cell>
      <Cell label="Created">
        <Moment iso={apiKey.createdAt} />
      </Cell>
      <Cell label="Last used">
        {apiKey.lastUsedAt ? <Moment iso={apiKey.lastUsedAt} /> : <span className="muted">never</span>}
      </Cell>
      <Cell label="Actions">
        <ConfirmButton
          permission={canManage}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(apiKey.id)}
          question={`Delete ${apiKey.name}? Apps using it are refused within a second.`}
        >
          Delete
        </ConfirmButton>
        <InlineError error={remove.error} />
      </Cell>
    </tr>
  );
}
