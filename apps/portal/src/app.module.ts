import { Module } from '@nestjs/common';
import { CustomersController } from './customers/customers.controller.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ controllers: [CustomersController] })
export class AppModule {}
