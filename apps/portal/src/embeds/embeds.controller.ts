import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { CreateEmbedRequestDto, ListEmbedsQueryDto } from './dto/embed.request.dto.js';
import { CreatedEmbedResponseDto, EMBED_EXAMPLE, EmbedResponseDto, type CreatedEmbedResponse, type EmbedResponse } from './dto/embed.response.dto.js';
import { EmbedsService } from './embeds.service.js';

/** The address the caller reached the platform at: the gateway forwards its own. */
function baseUrl(req: Request): string {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.split(',')[0].trim();
  const proto = first(req.headers['x-forwarded-proto']) ?? req.protocol;
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? 'localhost';
  return `${proto === 'https' ? 'https' : 'http'}://${host}`;
}

const { token: _token, html: _html, url: _url, ...LISTED } = EMBED_EXAMPLE;

@ApiTag('embeds', "Signed, expiring tokens that show a published workflow's form, a customer's runs or a dashboard inside another site, or as a public link.")
@Controller('portal/embed')
export class EmbedsController {
  constructor(private readonly embeds: EmbedsService) {}

  @Post()
  @RequireScopes('portal:write')
  @ApiOperation({
    summary: 'Generate embed code',
    description:
      'A JWT bound to one customer, kind and target, signed with a key the platform rotates, and an iframe snippet. Pages of `allowed_origins` may frame the view; with none it is a plain signed link (also the public form link).',
  })
  @ApiCreatedResponse({ type: CreatedEmbedResponseDto, example: EMBED_EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateEmbedRequestDto, @Req() req: Request): Promise<CreatedEmbedResponse> {
    return this.embeds.create(p, body, baseUrl(req));
  }

  @Get()
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'List embed tokens', description: 'Their records (never the tokens); a customer key sees its own.' })
  @ApiPageResponse(EmbedResponseDto, { example: { data: [LISTED], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListEmbedsQueryDto): Promise<Page<EmbedResponse>> {
    return this.embeds.list(p, query);
  }

  @Get(':id')
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'Get an embed token record', description: 'The record of one token (the token itself is returned only when made).' })
  @ApiOkResponse({ type: EmbedResponseDto, example: LISTED })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<EmbedResponse> {
    return this.embeds.get(p, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Revoke an embed token', description: 'Its views and form stop working at once.' })
  @ApiNoContentResponse({ description: 'Revoked' })
  async revoke(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    await this.embeds.revoke(p, id);
  }
}
