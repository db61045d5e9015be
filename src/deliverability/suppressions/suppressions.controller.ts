import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser } from '../../auth';
import { RequiresScope } from '../../auth';
import type { AuthUser } from '../../auth';
import { JsonBodyInterceptor } from '../../platform/http/json-body/json-body.interceptor';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import {
  CreateSuppressionDto,
  ListSuppressionsQuery,
  SuppressionAddressParams,
  SuppressionPageResponse,
  SuppressionResponse,
} from './dto/suppression.dto';
import { CREATE_SUPPRESSION_EXAMPLES } from './dto/create-suppression.examples';
import { SuppressionsService } from './suppressions.service';

@ApiTags('suppressions')
@ApiBearerAuth()
@Controller('user/suppressions')
export class SuppressionsController {
  constructor(private readonly service: SuppressionsService) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({ summary: 'Your suppression list, newest first: addresses your mail is not delivered to' })
  @ApiOkResponse({ type: SuppressionPageResponse })
  @ApiProblemResponses(400, 401, 429)
  list(@CurrentUser() user: AuthUser, @Query() query: ListSuppressionsQuery): Promise<SuppressionPageResponse> {
    return this.service.list(user.id, query);
  }

  @Post()
  @RequiresScope('send')
  // Bodies are read per route, after authentication.
  @UseInterceptors(JsonBodyInterceptor)
  @ApiOperation({
    summary: 'Stop delivering to an address (reason manual), all mail or only bulk mail',
    description: 'An address already listed keeps its entry, unless this one stops more mail (`all` over `bulk`).',
  })
  @ApiBody({ type: CreateSuppressionDto, examples: CREATE_SUPPRESSION_EXAMPLES })
  @ApiCreatedResponse({ type: SuppressionResponse })
  @ApiProblemResponses(400, 401, 415, 429)
  add(@CurrentUser() user: AuthUser, @Body() body: CreateSuppressionDto): Promise<SuppressionResponse> {
    return this.service.add(user, body);
  }

  @Delete(':email')
  @RequiresScope('send')
  @HttpCode(204)
  @ApiOperation({ summary: 'Deliver to an address again' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiProblemResponses(401, 404, 429)
  remove(@CurrentUser() user: AuthUser, @Param() params: SuppressionAddressParams): Promise<void> {
    return this.service.remove(user, params.email);
  }
}
