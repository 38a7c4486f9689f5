import { Module } from '@nestjs/common';
import { KB_CONFIG, loadKbConfig } from './kb.config.js';

/** KB_CONFIG: the service's own settings, for the features that need them. */
@Module({
  providers: [{ provide: KB_CONFIG, useFactory: () => loadKbConfig() }],
  exports: [KB_CONFIG],
})
export class KbConfigModule {}
