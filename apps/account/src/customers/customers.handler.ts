import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  AccountSubjects,
  CreateCustomerRequest,
  CustomerIdRequest,
  ListCustomersRequest,
  ResolveCustomerRequest,
  TenantPayload,
  UpdateCustomerRequest,
  type CustomerPage,
  type CustomerRecord,
  type ResolveCustomerResponse,
  type TenantMessage,
} from '@platform/messaging';
import { CustomersService } from './customers.service.js';

@Controller()
export class CustomersHandler {
  constructor(private readonly customers: CustomersService) {}

  @MessagePattern(AccountSubjects.customersResolve)
  async resolve(@TenantPayload(ResolveCustomerRequest) { tenant, body }: TenantMessage<ResolveCustomerRequest>): Promise<ResolveCustomerResponse> {
    return { exists: await this.customers.exists(tenant, body.customerId) };
  }

  @MessagePattern(AccountSubjects.customersCreate)
  create(@TenantPayload(CreateCustomerRequest) { tenant, body }: TenantMessage<CreateCustomerRequest>): Promise<CustomerRecord> {
    return this.customers.create(tenant, body);
  }

  @MessagePattern(AccountSubjects.customersList)
  list(@TenantPayload(ListCustomersRequest) { tenant, body }: TenantMessage<ListCustomersRequest>): Promise<CustomerPage> {
    return this.customers.list(tenant, body);
  }

  @MessagePattern(AccountSubjects.customersGet)
  get(@TenantPayload(CustomerIdRequest) { tenant, body }: TenantMessage<CustomerIdRequest>): Promise<CustomerRecord> {
    return this.customers.get(tenant, body.id);
  }

  @MessagePattern(AccountSubjects.customersUpdate)
  update(@TenantPayload(UpdateCustomerRequest) { tenant, body }: TenantMessage<UpdateCustomerRequest>): Promise<CustomerRecord> {
    return this.customers.update(tenant, body);
  }

  @MessagePattern(AccountSubjects.customersDelete)
  delete(@TenantPayload(CustomerIdRequest) { tenant, body }: TenantMessage<CustomerIdRequest>): Promise<{ deleted: true }> {
    return this.customers.delete(tenant, body.id);
  }
}
