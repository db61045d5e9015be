import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../platform/http/public.decorator';
import { ApiProblemResponses } from '../../platform/problem/api-problem-responses.decorator';
import { NotFoundError } from '../../platform/problem/problem.errors';
import { ResubscribeResponse, UnsubscribeResponse } from './dto/unsubscribe.response';
import { discardBody, MAX_UNSUBSCRIBE_BODY_BYTES } from './unsubscribe-body';
import {
  confirmationPage,
  invalidLinkPage,
  PAGE_HEADERS,
  resubscribedPage,
  unsubscribedPage,
} from './unsubscribe-pages';
import { UnsubscribeService } from './unsubscribe.service';

const NOT_FOUND = {
  status: 404,
  when: 'The token is forged, altered or cut short, or names no recipient; nothing changed. A browser (Accept: text/html) gets a page saying so',
  detail: 'This unsubscribe link does not exist.',
};
const HTML = { 'text/html': { schema: { type: 'string' } } };
const TOKEN = {
  name: 'token',
  description: 'The token of a List-Unsubscribe link: 54 hexadecimal characters',
  example: 'c0ffee'.padEnd(54, '0'),
};

/**
 * The links of List-Unsubscribe (docs/delivery-and-deliverability.md, RFC 8058): public, since a recipient has no account,
 * and not counted by the per-user rate limit, which counts callers with a token of ours.
 */
@ApiTags('unsubscribe')
@Public()
@Controller('unsubscribe')
export class UnsubscribeController {
  constructor(private readonly service: UnsubscribeService) {}

  @Get(':token')
  @ApiOperation({
    summary: 'The page a List-Unsubscribe link opens: a button that unsubscribes; opening it changes nothing',
  })
  @ApiParam(TOKEN)
  @ApiOkResponse({ description: 'The confirmation page', content: HTML })
  @ApiProblemResponses(NOT_FOUND)
  async page(
    @Param('token') token: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    response.set(PAGE_HEADERS);
    const target = await this.service.target(token);
    if (!target && !prefersHtml(request)) throw new NotFoundError('This unsubscribe link');
    response.type('html').status(target ? 200 : 404);
    return target ? confirmationPage(target) : invalidLinkPage();
  }

  @Post(':token')
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Unsubscribe (RFC 8058 one-click): the recipient goes on the sender's suppression list with reason `unsubscribe`",
    description:
      'Any body of any media type, or none, up to ' +
      MAX_UNSUBSCRIBE_BODY_BYTES +
      ' bytes; it is not read. ' +
      'Idempotent: an address already on the list keeps its entry, so a bounce or complaint stays one. ' +
      'A browser (Accept: text/html) gets a page, anything else JSON.',
  })
  @ApiParam(TOKEN)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    required: false,
    description: 'What RFC 8058 has mail clients send; ignored',
    schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } },
  })
  @ApiExtraModels(UnsubscribeResponse)
  @ApiOkResponse({
    description: 'Unsubscribed (or already): JSON, or a page for a browser',
    content: { 'application/json': { schema: { $ref: getSchemaPath(UnsubscribeResponse) } }, ...HTML },
  })
  @ApiProblemResponses(NOT_FOUND, 413)
  async unsubscribe(
    @Param('token') token: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string | UnsubscribeResponse> {
    response.set(PAGE_HEADERS);
    await discardBody(request);
    const target = await this.service.suppress(token);
    const html = prefersHtml(request);
    if (!target && !html) throw new NotFoundError('This unsubscribe link');
    if (!html) return { unsubscribed: true };
    response.type('html').status(target ? 200 : 404);
    return target ? unsubscribedPage(target, token) : invalidLinkPage();
  }

  @Post(':token/resubscribe')
  @HttpCode(200)
  @ApiOperation({
    summary: "Undo an unsubscribe: the recipient's `unsubscribe` entry leaves the sender's suppression list",
    description:
      'The button of the page that answers an unsubscribe. Only an entry with reason `unsubscribe` goes: a bounce, a ' +
      'complaint or a manual entry stays. Any body, or none, up to ' +
      MAX_UNSUBSCRIBE_BODY_BYTES +
      ' bytes; it is not read. ' +
      'A browser (Accept: text/html) gets a page, anything else JSON.',
  })
  @ApiParam(TOKEN)
  @ApiExtraModels(ResubscribeResponse)
  @ApiOkResponse({
    description: 'Done (or nothing to undo): JSON, or a page for a browser',
    content: { 'application/json': { schema: { $ref: getSchemaPath(ResubscribeResponse) } }, ...HTML },
  })
  @ApiProblemResponses(NOT_FOUND, 413)
  async resubscribe(
    @Param('token') token: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string | ResubscribeResponse> {
    response.set(PAGE_HEADERS);
    await discardBody(request);
    const target = await this.service.resubscribe(token);
    const html = prefersHtml(request);
    if (!target && !html) throw new NotFoundError('This unsubscribe link');
    if (!html) return { resubscribed: target!.undone };
    response.type('html').status(target ? 200 : 404);
    return target ? resubscribedPage(target, token) : invalidLinkPage();
  }
}

/**
 * Whether the client asks for a page rather than JSON, as a browser's Accept does: without an
 * Accept, or with one that takes anything, answers are JSON and problems problem+json, as
 * everywhere else in the API.
 */
function prefersHtml(request: Request): boolean {
  return request.accepts(['application/json', 'application/problem+json', 'text/html']) === 'text/html';
}
