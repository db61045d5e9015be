import { useState, type FormEvent } from 'react';
import { useMemberSession, type Role } from '../../api/caller';
import { useInviteMember } from '../../api/members';
import { InlineError } from '../../components/states';
import { mayHandle, ROLES } from './roles';

/** Invites an address with a role: the API mails it a link, valid 7 days (docs/teams.md#invitations). */
export function InviteMemberForm() {
  const manager = useMemberSession().data?.role;
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const invite = useInviteMember();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Invite a member">
      {invite.data && (
        <p role="status" className="inline-note">
          Invited {invite.data.email}: the invitation mail is on its way.
        </p>
      )}
      <div className="inline-form">
        <label htmlFor="invite-email">Email</label>
        <input
          id="invite-email"
          name="email"
          type="email"
          maxLength={254}
          placeholder="grace@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
        />
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" name="role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {ROLES.map((option) => (
            <option key={option.role} value={option.role} disabled={!mayHandle(manager, option.role)}>
              {option.role}: {option.meaning}
            </option>
          ))}
        </select>
        <button type="submit" className="primary" disabled={invite.isPending}>
          Invite
        </button>
      </div>
      <InlineError error={invite.error} />
    </form>
  );
}
