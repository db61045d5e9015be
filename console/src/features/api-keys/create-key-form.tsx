import { useState, type FormEvent } from 'react';
import { useCaller, type Scope } from '../../api/caller';
import { useCreateApiKey } from '../../api/api-keys';
import { CopyButton } from '../../components/copy-button';
import { InlineError } from '../../components/states';

const SCOPES: { scope: Scope; meaning: string }[] = [
  { scope: 'send', meaning: 'send mail and change what is delivered' },
  { scope: 'read', meaning: 'read messages, domains, suppressions and webhook deliveries' },
  { scope: 'keys', meaning: 'manage API keys and read the webhook secret' },
];

/** A new key with the scopes chosen; the answer is the only time the key is shown. */
export function CreateKeyForm() {
  const own = useCaller().data?.scopes;
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['send', 'read', 'keys']);
  const create = useCreateApiKey();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), scopes }, { onSuccess: () => setName('') });
  };
  const toggle = (scope: Scope) =>
    setScopes(scopes.includes(scope) ? scopes.filter((s) => s !== scope) : [...scopes, scope]);

  return (
    <>
      {create.data && (
        <div className="card created-key" role="status">
          <p>
            <strong>{create.data.name}</strong>: copy this key now. It is not shown again.
          </p>
          <code className="wrap secret" data-testid="new-key">
            {create.data.key}
          </code>{' '}
          <CopyButton value={create.data.key} label="the new API key" />
          <button type="button" onClick={() => create.reset()}>
            Done
          </button>
        </div>
      )}
      <form className="card" onSubmit={submit} aria-label="Create an API key">
        <div className="inline-form">
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            name="name"
            maxLength={100}
            placeholder="CRM newsletters"
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
          />
        </div>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map(({ scope, meaning }) => {
            const beyondOwn = own !== undefined && !own.includes(scope);
            return (
              <label key={scope} className="check">
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  checked={scopes.includes(scope) && !beyondOwn}
                  disabled={beyondOwn}
                  onChange={() => toggle(scope)}
                />
                <strong>{scope}</strong>: {meaning}
                {beyondOwn && <span className="inline-note"> (not allowed: this key lacks it)</span>}
              </label>
            );
          })}
        </fieldset>
        <button type="submit" className="primary" disabled={create.isPending || scopes.length === 0}>
          Create key
        </button>
        <InlineError error={create.error} />
      </form>
    </>
  );
}
