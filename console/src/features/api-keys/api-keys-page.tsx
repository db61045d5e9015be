import { usePermission } from '../../api/caller';
import { useApiKeys, useDeleteApiKey, type ApiKey } from '../../api/api-keys';
import { ConfirmButton } from '../../components/confirm-button';
import { Moment } from '../../components/moment';
import { QueryView } from '../../components/query-view';
import { Empty, InlineError, NotAllowed } from '../../components/states';
import { CreateKeyForm } from './create-key-form';

/** API keys (SPEC §10): create with scopes (the key shown once), list, delete. */
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
            <table className="table stack-on-narrow">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {apiKeys.map((key) => (
                  <KeyRow key={key.id} apiKey={key} />
                ))}
              </tbody>
            </table>
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
      <td data-label="Name" className="wrap">
        {apiKey.name}
      </td>
      <td data-label="Key">{apiKey.prefix ? <code>{apiKey.prefix}…</code> : <span className="muted">—</span>}</td>
      <td data-label="Scopes">{apiKey.scopes.join(', ')}</td>
      <td data-label="Created">
        <Moment iso={apiKey.createdAt} />
      </td>
      <td data-label="Last used">
        {apiKey.lastUsedAt ? <Moment iso={apiKey.lastUsedAt} /> : <span className="muted">never</span>}
      </td>
      <td data-label="Actions">
        <ConfirmButton
          permission={canManage}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(apiKey.id)}
          question={`Delete ${apiKey.name}? Apps using it are refused within a second.`}
        >
          Delete
        </ConfirmButton>
        <InlineError error={remove.error} />
      </td>
    </tr>
  );
}
