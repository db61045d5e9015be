import { useMembersPermission } from '../../api/caller';
import { useMembers } from '../../api/members';
import { QueryView } from '../../components/query-view';
import { Empty, NotAllowed } from '../../components/states';
import { Table } from '../../components/table';
import { InviteMemberForm } from './invite-member-form';
import { MemberRow } from './member-row';

/**
 * The account's members (docs/teams.md#members-and-roles): invite, change a role, remove, with each
 * one's last sign-in. Owners and admins (and a JWT) manage them; anyone else sees it not allowed.
 */
export function MembersPage() {
  const canManage = useMembersPermission();
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <p className="muted">The people who sign in to this account, each with a role.</p>
      {canManage.allowed ? <MembersView /> : <NotAllowed detail={canManage.reason ?? ''} />}
    </section>
  );
}

function MembersView() {
  const query = useMembers();
  return (
    <>
      <InviteMemberForm />
      <QueryView query={query} what="members">
        {({ members }) =>
          members.length === 0 ? (
            <Empty title="No members yet">Invite the people of your team: each gets a mail with a link.</Empty>
          ) : (
            <Table columns={['Member', 'Role', 'Status', 'Last sign-in', '']}>
              {members.map((member) => (
                <MemberRow key={member.id} member={member} />
              ))}
            </Table>
          )
        }
      </QueryView>
    </>
  );
}
