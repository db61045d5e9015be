import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { ApiProblemResponses } from '../platform/problem/api-problem-responses.decorator';
import type { ApiKeyScope } from './api-keys/api-key-scope';

export const REQUIRED_SCOPE = 'requiredScope';
/** The required "scope" of an operation every API key reaches, whatever its scopes (telling a caller who it is). */
export const ANY_SCOPE = 'any';
/** The member roles an operation is limited to beside its scope (OwnersAndAdminsOnly). */
export const MEMBER_ROLES_ONLY = 'memberRolesOnly';
/** The OpenAPI security scheme of API keys (app.setup.ts declares it beside the JWT's). */
export const API_KEY_SECURITY = 'api-key';

/**
 * The scope an API key needs for the operation (docs/api.md#smtp-submission), enforced by the bearer guard and
 * stated in the API document. An operation without one is closed to API keys: a new endpoint is
 * JWT-only until someone decides which scope it belongs to.
 */
export const RequiresScope = (scope: ApiKeyScope) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    ApiSecurity(API_KEY_SECURITY),
    ApiExtension('x-api-key-scope', scope),
    ApiProblemResponses({
      status: 403,
      when: `An API key without the scope \`${scope}\``,
      detail: `This API key lacks the scope ${scope}, which this operation needs.`,
    }),
  );

/** Open to every API key, whatever its scopes: for what only describes the caller itself. */
export const OpenToEveryApiKey = () =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPE, ANY_SCOPE),
    ApiSecurity(API_KEY_SECURITY),
    ApiExtension('x-api-key-scope', ANY_SCOPE),
  );

/**
 * Closed to every API key, on purpose (managing the team's members, docs/teams.md): stated in the API
 * document as the scope `none`, so that an operation nobody has decided about still stands out.
 * The bearer guard needs no mark: an operation without a scope is closed to API keys already.
 */
export const ClosedToApiKeys = () => ApiExtension('x-api-key-scope', 'none');

/**
 * Among members, for owners and admins alone, whatever scopes a lesser role has (docs/teams.md#audit-log):
 * the audit log is open to keys with `keys`, yet a developer, whose role has that scope, may not read it.
 * Enforced by the bearer guard and stated in the API document as `x-member-roles`.
 */
export const OwnersAndAdminsOnly = () =>
  applyDecorators(SetMetadata(MEMBER_ROLES_ONLY, true), ApiExtension('x-member-roles', ['owner', 'admin']));
