import { useState, type FormEvent } from 'react';
import { usePermission } from '../../api/caller';
import { useAddSuppression, type NewSuppression } from '../../api/suppressions';
import { ActionButton } from '../../components/action-button';
import { InlineError } from '../../components/states';

type Scope = NonNullable<NewSuppression['scope']>;

export function AddSuppressionForm() {
  const [email, setEmail] = useState('');
  const [scope, setScope] = useState<Scope>('all');
  const add = useAddSuppression();
  const canSend = usePermission('send');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ email: email.trim(), scope }, { onSuccess: () => setEmail('') });
  };
  return (
    <form className="card inline-form" onSubmit={submit} aria-label="Suppress an address">
      <label htmlFor="suppress-email">Suppress</label>
      <input
        id="suppress-email"
        type="email"
        name="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder="someone@example.com"
        disabled={!canSend.allowed}
      />
      <label htmlFor="suppress-scope">Stops</label>
      <select
        id="suppress-scope"
        value={scope}
        onChange={(event) => setScope(event.target.value as Scope)}
        disabled={!canSend.allowed}
      >
        <option value="all">all mail</option>
        <option value="bulk">bulk mail only</option>
      </select>
      <ActionButton type="submit" className="primary" permission={canSend} pending={add.isPending}>
        Add
      </ActionButton>
      <InlineError error={add.error} />
    </form>
  );
}
