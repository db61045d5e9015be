import { useState, type FormEvent } from 'react';
import { usePermission } from '../../api/caller';
import { useAddSuppression, type NewSuppression } from '../../api/suppressions';
import { ActionButton } from '../../components/action-button';
import { InlineError } from '../../components/states';

type Scope = NonNullable<NewSuppression['scope']>;

/**
 * Adds an address by hand. Nothing is preselected for what it stops: Enter in the address alone
 * (issue 33: it added a block-all entry unasked) stops at the choice, which the browser asks for.
 */
export function AddSuppressionForm() {
  const [email, setEmail] = useState('');
  const [scope, setScope] = useState<Scope | ''>('');
  const add = useAddSuppression();
  const canSend = usePermission('send');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (scope === '') return;
    add.mutate(
      { email: email.trim(), scope },
      {
        onSuccess: () => {
          setEmail('');
          setScope('');
        },
      },
    );
  };
  const choice = (value: Scope, label: string) => (
    <label className="check">
      <input
        type="radio"
        name="scope"
        value={value}
        required
        checked={scope === value}
        onChange={() => setScope(value)}
        disabled={!canSend.allowed}
      />
      {label}
    </label>
  );
  return (
    <form className="card inline-form" onSubmit={submit} aria-label="Add a suppression">
      <label htmlFor="suppress-email">Address to suppress</label>
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
      <fieldset className="inline-choices">
        <legend>Stops</legend>
        {choice('all', 'all mail')}
        {choice('bulk', 'bulk mail only')}
      </fieldset>
      <ActionButton type="submit" className="primary" permission={canSend} pending={add.isPending}>
        Add suppression
      </ActionButton>
      <InlineError error={add.error} />
    </form>
  );
}
