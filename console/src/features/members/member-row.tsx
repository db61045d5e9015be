import { useId, useRef, useState } from 'react';
import { useMemberSession, type Permission, type Role } from '../../api/caller';
import { useChangeRole, useRemoveMember, type Member } from '../../api/members';
import { ActionButton } from '../../components/action-button';
import { ConfirmButton } from '../../components/confirm-button';
import { Moment } from '../../components/moment';
import { InlineError } from '../../components/states';
import { Cell } from '../../components/table';
import { mayHandle, ROLES } from './roles';

const ADMIN_AND_OWNER: Permission = { allowed: false, reason: 'Not allowed: only an owner changes an owner.' };

/**
 * A member with its role, status, last sign-in, and Remove (asked first). A new role is chosen, then
 * applied with its own button: a select that sent each value it passed through would change the
 * role at every arrow key.
 */
export function MemberRow({ member }: { member: Member }) {
  const manager = useMemberSession().data?.role;
  const change = useChangeRole();
  const remove = useRemoveMember();
  const selectId = useId();
  const [role, setRole] = useState<Role>(member.role);
  const select = useRef<HTMLSelectElement>(null);
  // The button goes once the role holds: the focus returns to the select rather than to the page's top.
  const apply = () => change.mutate({ id: member.id, role }, { onSuccess: () => select.current?.focus() });
  const permission = mayHandle(manager, member.role) ? { allowed: true } : ADMIN_AND_OWNER;
  const what = member.status === 'invited' ? `Withdraw the invitation of ${member.email}?` : `Remove ${member.email}?`;
  return (
    <tr>
      <Cell label="Member" wrap>
        <div>
          <strong>{member.email}</strong>
          {member.name && <div className="muted small">{member.name}</div>}
        </div>
      </Cell>
      <Cell label="Role">
        <label htmlFor={selectId} className="visually-hidden">
          Role of {member.email}
        </label>
        <span className="role-change">
          <select
            id={selectId}
            ref={select}
            className="role-select"
            value={role}
            disabled={!permission.allowed}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            {ROLES.map((option) => (
              <option key={option.role} value={option.role} disabled={!mayHandle(manager, option.role)}>
                {option.role}
              </option>
            ))}
          </select>
          {role !== member.role && (
            <ActionButton permission={permission} pending={change.isPending} onClick={apply}>
              Change role
            </ActionButton>
          )}
        </span>
        <InlineError error={change.error} />
      </Cell>
      <Cell label="Status">
        {member.status === 'invited' ? (
          <span>
            invited <Moment iso={member.invitedAt} />
          </span>
        ) : (
          'active'
        )}
      </Cell>
      <Cell label="Last sign-in">
        {member.lastSignInAt ? <Moment iso={member.lastSignInAt} /> : <span className="muted">never</span>}
      </Cell>
      <Cell label="Actions">
        <ConfirmButton
          permission={permission}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(member.id)}
          question={`${what} Their sessions end at once.`}
        >
          Remove
        </ConfirmButton>
        <InlineError error={remove.error} />
      </Cell>
    </tr>
  );
}
