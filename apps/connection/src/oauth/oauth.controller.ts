import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, Public, RequireScopes, type Principal } from '@platform/auth';
import { ApiTag } from '@platform/service';
import { OAuthCallbackResponseDto, StartOAuthRequestDto, StartOAuthResponseDto } from './dto/oauth.dto.js';
import { OAuthService, type OAuthStart } from './oauth.service.js';

/** OAuth 2.0 authorization code with PKCE: start (authenticated) and the provider's callback (public). */
@ApiTag(
  'connections',
  'Credentials for outside systems (API key, basic, bearer, OAuth 2.0), sealed at rest and never returned; connection tests; the operations a connection can run.',
)
@Controller('connections/oauth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Post('start')
  @HttpCode(200)
  @RequireScopes('connections:write')
  @ApiOperation({
    summary: 'Start an OAuth authorization',
    description:
      "Answers the provider's authorization URL (PKCE S256, a single-use state valid 10 minutes, bound to the tenant, the caller and the connection).",
  })
  @ApiOkResponse({ type: StartOAuthResponseDto, description: 'Where to send the user' })
  @ApiNotFoundResponse({ description: 'No such connection (also another tenant’s or customer’s)' })
  @ApiConflictResponse({ description: 'The connection does not use the OAuth authorization code flow, or is not waiting for authorization' })
  @ApiBadRequestResponse({ description: 'The connection has no authorization_url (`oauth_misconfigured`)' })
  start(@CurrentPrincipal() p: Principal, @Body() body: StartOAuthRequestDto): Promise<OAuthStart> {
    return this.oauth.start(p, body.connection_id, body.redirect_uri, body.return_url);
  }

  @Get('callback')
  @Public()
  @ApiOperation({
    summary: 'OAuth callback',
    description:
      'The provider redirects the browser here. The state is checked and used up, the code exchanged (with the PKCE verifier), the tokens sealed. Redirects to the return_url given at start, or answers JSON.',
  })
  @ApiOkResponse({
    type: OAuthCallbackResponseDto,
    description: 'The outcome (without a return_url)',
    example: { ok: true, connection_id: '01937c2e-6a55-7cc1-9a3e-1f2a3b4c5d6e', message: 'The connection is authorized' },
  })
  @ApiBadRequestResponse({ description: 'The authorization state is missing, unknown, used or expired (`invalid_state`): start again' })
  @ApiBadGatewayResponse({ description: 'The provider’s token endpoint failed (`oauth_provider_unavailable`)' })
  async callback(@Query() query: Record<string, string>, @Res({ passthrough: true }) res: Response): Promise<OAuthCallbackResponseDto | undefined> {
    const result = await this.oauth.callback(query);
    if (result.return_url) {
      const target = new URL(result.return_url);
      target.searchParams.set('connection_id', result.connection_id ?? '');
      target.searchParams.set('status', result.ok ? 'authorized' : 'failed');
      res.redirect(302, target.href);
      return undefined;
    }
    return { ok: result.ok, connection_id: result.connection_id, message: result.message };
  }
}
