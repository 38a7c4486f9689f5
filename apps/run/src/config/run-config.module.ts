import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@platform/service';
import { RUN_CONFIG } from './run.config.js';

/** RUN_CONFIG: the service's settings (validated once by the bootstrap) under their own type. */
@Module({
  providers: [{ provide: RUN_CONFIG, useExisting: SERVICE_CONFIG }],
  exports: [RUN_CONFIG],
})
export class RunConfigModule {}
