import { Module } from '@nestjs/common';
import { CustomersHandler } from './customers.handler.js';
import { CustomersService } from './customers.service.js';

/** Customers (execution scopes), served to the portal over NATS. */
@Module({
  controllers: [CustomersHandler],
  providers: [CustomersService],
})
export class CustomersModule {}
