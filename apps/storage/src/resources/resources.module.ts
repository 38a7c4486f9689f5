import { Module } from '@nestjs/common';

/** Resources feature of the storage service. */
@Module({})
export class ResourcesModule {}
