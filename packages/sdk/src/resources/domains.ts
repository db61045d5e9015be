import type { paths } from '../generated/openapi.js';
import { type Api, type BodyOf, type CallOptions, type Schemas, unwrap, type Shape } from '../request.js';

export interface CreateDomain extends Shape<BodyOf<paths['/domains']['post']>> {}
export interface UpdateDomain extends Shape<BodyOf<paths['/domains/{id}']['patch']>> {}
export interface Domain extends Shape<Schemas['DomainResponse']> {}
export interface DomainVerification extends Shape<Schemas['DomainVerificationResponse']> {}

export class Domains {
  /** @internal The client makes its resources. */
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
