import { Module } from '@nestjs/common';
import { ConnectionConfigModule } from '../config/connection-config.module.js';
import { ConnectionsModule } from '../connections/connections.module.js';
import { OutboundModule } from '../outbound/outbound.module.js';
import { OAuthClient } from './oauth-client.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthService } from './oauth.service.js';
import { TokenKeeper } from './token-keeper.js';

/** OAuth 2.0: the authorization code flow, and access tokens refreshed before they expire (TokenKeeper, for operations). */
@Module({
  imports: [ConnectionConfigModule, OutboundModule, ConnectionsModule],
  controllers: [OAuthController],
  providers: [OAuthClient, TokenKeeper, OAuthService],
  exports: [TokenKeeper],
})
export class OAuthModule {}
