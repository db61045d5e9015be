import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { JsonBodyInterceptor } from '../../platform/http/json-body/json-body.interceptor';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { CurrentUser } from '../current-user.decorator';
import type { AuthUser } from '../auth-user';
import { RequiresScope } from '../requires-scope.decorator';
import { ApiKeysService, MAX_API_KEYS_PER_USER } from './api-keys.service';
import { ApiKeyListResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';

@ApiTags('api-keys')
@ApiBearerAuth()
@RequiresScope('keys')
@Controller('user/api-keys')
export class ApiKeysController {
  constructor(private readonly service: ApiKeysService) {}

  @Post()
  // Bodies are read per route, after authentication.
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({ summary: 'Make an API key: the answer is the only time the key is shown' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiProblemResponses(
    400,
    401,
    {
      status: 403,
      when: 'An API key asks for a scope it lacks itself',
      detail: 'This API key cannot make a key with the scope send, which it lacks; its scopes: keys.',
    },
    {
      status: 409,
      when: `You have ${MAX_API_KEYS_PER_USER} API keys`,
      detail: `You have ${MAX_API_KEYS_PER_USER} API keys, the most one user may have; delete one to add another.`,
    },
    415,
    429,
  )
  create(@CurrentUser() user: AuthUser, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    return this.service.create(user, body);
  }

  @Get()
  @ApiOperation({ summary: 'Your API keys, newest first, without the keys themselves' })
  @ApiOkResponse({ type: ApiKeyListResponse })
  @ApiProblemResponses(401, 429)
  list(@CurrentUser() user: AuthUser): Promise<ApiKeyListResponse> {
    return this.service.list(user.id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an API key: within a second it is refused everywhere' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblemResponses(
    401,
    {
      status: 403,
      when: 'An API key deletes a key holding a scope it lacks itself',
      detail: 'This API key cannot delete a key with the scope send, read, which it lacks; its scopes: keys.',
    },
    404,
    429,
  )
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.service.remove(user, id);
  }
}
