import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { API_KEY_SCOPES } from '../api-keys/api-key-scope';
import type { AuthUser } from '../auth-user';
import { CurrentUser } from '../current-user.decorator';
import { OpenToEveryApiKey } from '../requires-scope.decorator';
import { ROLE_SCOPES } from '../members/member-role';
import { CallerResponse } from './caller.dto';

/** Who the caller is and what it may do, so that a client (the console) can offer only what will be allowed. */
@ApiTags('api-keys')
@ApiBearerAuth()
@Controller('user/me')
export class CallerController {
  @Get()
  @OpenToEveryApiKey()
  @ApiOperation({ summary: 'Who you are: your user id and what your credential may do (any API key may ask)' })
  @ApiOkResponse({ type: CallerResponse })
  @ApiProblemResponses(401, 429)
  me(@CurrentUser() user: AuthUser): CallerResponse {
    return {
      userId: user.id,
      credential: user.apiKey ? 'api-key' : user.member ? 'session' : 'jwt',
      scopes: user.apiKey ? user.apiKey.scopes : [...(user.member ? ROLE_SCOPES[user.member.role] : API_KEY_SCOPES)],
      apiKeyId: user.apiKey?.id ?? null,
    };
  }
}
