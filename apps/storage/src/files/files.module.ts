import { Module } from '@nestjs/common';
import { loadConfig } from '@platform/common';
import { UsageOutboxModule } from '@platform/service';
import { FILE_BACKEND } from './backends/file-backend.js';
import { createFileBackend } from './backends/backend.factory.js';
import { FileUploadsService } from './file-uploads.service.js';
import { FILES_CONFIG, FilesConfig } from './files.config.js';
import { FilesController } from './files.controller.js';
import { FilesHandler } from './files.handler.js';
import { FilesService } from './files.service.js';

/** Files feature of the storage service: uploads, downloads, verification, workflow file steps. */
@Module({
  imports: [UsageOutboxModule],
  controllers: [FilesController, FilesHandler],
  providers: [
    // A ConfigError here stops the service with the list of problems (bootstrapService).
    { provide: FILES_CONFIG, useFactory: () => loadConfig(FilesConfig) },
    { provide: FILE_BACKEND, useFactory: (config: FilesConfig) => createFileBackend(config), inject: [FILES_CONFIG] },
    FilesService,
    FileUploadsService,
  ],
})
export class FilesModule {}
