import { Module } from '@nestjs/common';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({})
export class AppModule {}
