import { Module } from '@nestjs/common';

/** Files feature of the storage service. */
@Module({})
export class FilesModule {}
