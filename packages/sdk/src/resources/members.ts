import type { paths } from '../generated/openapi.js';
import { type Api, type BodyOf, type CallOptions, type Schemas, unwrap, type Shape } from '../request.js';

export interface InviteMember extends Shape<BodyOf<paths['/user/members']['post']>> {}
export interface ChangeMember extends Shape<BodyOf<paths['/user/members/{id}']['patch']>> {}
export interface Member extends Shape<Schemas['MemberResponse']> {}

export class Members {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** Invites someone to the account; the invitation is mailed to them. */
  invite(member: InviteMember, options: CallOptions = {}): Promise<Member> {
    return unwrap(this.api.POST('/user/members', { body: member, signal: options.signal }));
  }

  async list(options: CallOptions = {}): Promise<Member[]> {
    return (await unwrap(this.api.GET('/user/members', { signal: options.signal }))).members;
  }

  update(id: string, changes: ChangeMember, options: CallOptions = {}): Promise<Member> {
    return unwrap(
      this.api.PATCH('/user/members/{id}', { params: { path: { id } }, body: changes, signal: options.signal }),
    );
  }

  async remove(id: string, options: CallOptions = {}): Promise<void> {
    await unwrap(this.api.DELETE('/user/members/{id}', { params: { path: { id } }, signal: options.signal }));
  }
}
