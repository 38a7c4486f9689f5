import { Module } from '@nestjs/common';

/** Data feature of the storage service. */
@Module({})
export class DataModule {}
