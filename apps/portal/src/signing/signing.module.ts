import { Module } from '@nestjs/common';
import { loadPortalConfig, PORTAL_CONFIG } from '../config/portal.config.js';
import { KeyRing } from './key-ring.js';

/** The portal's settings and the platform's rotating signing keys. */
@Module({
  providers: [{ provide: PORTAL_CONFIG, useFactory: () => loadPortalConfig() }, KeyRing],
  exports: [PORTAL_CONFIG, KeyRing],
})
export class SigningModule {}
