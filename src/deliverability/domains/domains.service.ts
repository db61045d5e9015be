import { Injectable } from '@nestjs/common';
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { AuditLog } from '../../auth';
import type { AuthUser } from '../../auth';
import { isUuid } from '../../platform/uuid';
import { NotFoundError, StateConflictError } from '../../platform/problem/problem.errors';
import { DkimKeyCipher } from './dkim-key-cipher';
import { DnsRecords } from './dns-records';
import { toDomainName } from './domain-name';
import { AddResult, DomainsRepository } from './domains.repository';
import { CreateDomainDto, DomainListResponse, DomainResponse } from './dto/domain.dto';
import { SendingDomainEntity } from './entities/sending-domain.entity';

/** Enough for every brand and subdomain of one customer; a bound on the keys one caller can make us generate and store. */
export const MAX_DOMAINS_PER_USER = 100;
// A selector taken for the same name by another user (odds of 2^-32 a try) is drawn again.
const SELECTOR_TRIES = 3;

const generateRsaKeyPair = promisify(generateKeyPair);

/** POST, GET and DELETE /domains (docs/api.md#routes, docs/delivery-and-deliverability.md). */
@Injectable()
export class DomainsService {
  constructor(
    private readonly domains: DomainsRepository,
    private readonly cipher: DkimKeyCipher,
    private readonly records: DnsRecords,
    private readonly audit: AuditLog,
  ) {}

  async create(user: AuthUser, body: CreateDomainDto): Promise<DomainResponse> {
    const userId = user.id;
    const name = toDomainName(body.name)!;
    // Before the key is made: a repeat costs a look-up, not an RSA key generation.
    if (await this.domains.has(userId, name)) throw duplicate(name);
    // On libuv's thread pool, so that the event loop keeps serving while the key is found.
    const keys = await generateRsaKeyPair('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'der' },
    });
    let result: AddResult = 'selector taken';
    for (let tries = 0; result === 'selector taken' && tries < SELECTOR_TRIES; tries++) {
      const id = uuidv7();
      result = await this.domains.add(
        {
          id,
          userId,
          name,
          selector: newSelector(),
          publicKey: keys.publicKey.toString('base64'),
          privateKey: this.cipher.seal(keys.privateKey, id),
        },
        MAX_DOMAINS_PER_USER,
        (manager) =>
          this.audit.record(manager, {
            by: user,
            action: 'domain.created',
            target: { type: 'domain', id },
            detail: { name },
          }),
      );
    }
    if (result === 'duplicate') throw duplicate(name);
    if (result === 'limit reached') {
      throw new StateConflictError(
        `You have ${MAX_DOMAINS_PER_USER} sending domains, the most one user may have; delete one to add another.`,
      );
    }
    if (result === 'selector taken') throw new Error(`No free DKIM selector for ${name} in ${SELECTOR_TRIES} tries`);
    return this.map(result);
  }

  async list(userId: string): Promise<DomainListResponse> {
    return { domains: (await this.domains.list(userId)).map((domain) => this.map(domain)) };
  }

  async get(userId: string, id: string): Promise<DomainResponse> {
    return this.map(await this.find(userId, id));
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    const removed =
      isUuid(id) &&
      (await this.domains.remove(user.id, id, (manager) =>
        this.audit.record(manager, { by: user, action: 'domain.deleted', target: { type: 'domain', id } }),
      ));
    if (!removed) throw notFound(id);
  }

  /** One of the user's domains; a malformed id names none, like an unknown or foreign one. */
  async find(userId: string, id: string): Promise<SendingDomainEntity> {
    const domain = isUuid(id) ? await this.domains.get(userId, id) : undefined;
    if (!domain) throw notFound(id);
    return domain;
  }

  map(domain: SendingDomainEntity): DomainResponse {
    return {
      id: domain.id,
      name: domain.name,
      status: domain.verifiedAt ? 'verified' : 'pending',
      dkim: { selector: domain.selector, publicKey: domain.publicKey },
      dnsRecords: this.records.for(domain),
      verifiedAt: domain.verifiedAt?.toISOString() ?? null,
      receiving: domain.receiving,
      receivingStopped: domain.receivingStopped,
    };
  }
}

/** `mr` and the month (so that an operator can tell keys apart by age and rotate them), then 32 random bits. */
function newSelector(): string {
  const month = new Date().toISOString().slice(0, 7).replace('-', '');
  return `mr${month}${randomBytes(4).toString('hex')}`;
}

const notFound = (id: string) => new NotFoundError(isUuid(id) ? `Domain ${id}` : 'That domain');

const duplicate = (name: string) =>
  new StateConflictError(`You have registered ${name} already; GET /domains lists it with its records.`);
