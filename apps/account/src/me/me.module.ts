import { Module } from '@nestjs/common';
import { DirectoryHandler } from './directory.handler.js';
import { DirectoryService } from './directory.service.js';
import { MeController } from './me.controller.js';

/** The caller, and the organizations and team members of its tenant. */
@Module({
  controllers: [MeController, DirectoryHandler],
  providers: [DirectoryService],
})
export class MeModule {}
