import { Module } from '@nestjs/common';

/** Secrets feature of the storage service. */
@Module({})
export class SecretsModule {}
