import type { paths } from '../generated/openapi.js';
import { type Api, type BodyOf, type CallOptions, type Schemas, unwrap } from '../request.js';

export type CreateDomain = BodyOf<paths['/domains']['post']>;
export type UpdateDomain = BodyOf<paths['/domains/{id}']['patch']>;
export type Domain = Schemas['DomainResponse'];
export type DomainVerification = Schemas['DomainVerificationResponse'];

export class Domains {
  constructor(private readonly api: Api) {}

  create(domain: CreateDomain, options: CallOptions = {}): Promise<Domain> {
    return unwrap(this.api.POST('/domains', { body: domain, signal: options.signal }));
  }

  /** Every domain, oldest first. */
  async list(options: CallOptions = {}): Promise<Domain[]> {
    return (await unwrap(this.api.GET('/domains', { signal: options.signal }))).domains;
  }

  get(id: string, options: CallOptions = {}): Promise<Domain> {
    return unwrap(this.api.GET('/domains/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  update(id: string, changes: UpdateDomain, options: CallOptions = {}): Promise<Domain> {
    return unwrap(this.api.PATCH('/domains/{id}', { params: { path: { id } }, body: changes, signal: options.signal }));
  }

  async remove(id: string, options: CallOptions = {}): Promise<void> {
    await unwrap(this.api.DELETE('/domains/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  /** Looks up the domain's DNS records now. */
  verify(id: string, options: CallOptions = {}): Promise<DomainVerification> {
    return unwrap(this.api.POST('/domains/{id}/verify', { params: { path: { id } }, signal: options.signal }));
  }
}
