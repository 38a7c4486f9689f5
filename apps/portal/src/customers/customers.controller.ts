import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { AccountSubjects, Bus, messageContext, type CustomerPage, type CustomerRecord } from '@platform/messaging';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { CustomerResponseDto } from './dto/customer.response.dto.js';
import { CreateCustomerRequestDto, ListCustomersQueryDto, UpdateCustomerRequestDto } from './dto/customer.request.dto.js';

const EXAMPLE = {
  id: '0194f1c2-0000-7000-8000-0000000000c1',
  name: 'Globex Corporation',
  external_id: 'crm-4711',
  metadata: { plan: 'gold' },
  status: 'active',
  disabled_at: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

/** Customers (execution scopes): stored by the account service, served here. A customer's id is the X-Scope-Key value. */
@ApiTag('customers', "Customers (execution scopes) of the tenant: a customer's id is the `X-Scope-Key` value and the scope of its customer keys.")
@Controller('portal/customers')
export class CustomersController {
  constructor(private readonly bus: Bus) {}

  @Post()
  @RequireScopes('portal:write')
  @ApiOperation({
    summary: 'Create a customer',
    description: "A customer of the tenant in the caller's data plane; its id scopes customer keys, executions and data rows.",
  })
  @ApiConflictResponse({ description: 'A customer with this external_id already exists' })
  @ApiCreatedResponse({ type: CustomerResponseDto, description: 'The customer', example: EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateCustomerRequestDto): Promise<CustomerRecord> {
    return this.bus.request(AccountSubjects.customersCreate, { ...body }, messageContext(p));
  }

  @Get()
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'List customers', description: "Customers of the caller's data plane; filter by external id, status or part of the name." })
  @ApiPageResponse(CustomerResponseDto, { example: { data: [EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListCustomersQueryDto): Promise<CustomerPage> {
    return this.bus.request(
      AccountSubjects.customersList,
      { limit: query.limit, cursor: query.cursor, external_id: query.external_id, status: query.status, name: query.name },
      messageContext(p),
    );
  }

  @Get(':id')
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'Get a customer', description: 'One customer by id.' })
  @ApiOkResponse({ type: CustomerResponseDto, description: 'The customer', example: EXAMPLE })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<CustomerRecord> {
    return this.bus.request(AccountSubjects.customersGet, { id }, messageContext(p));
  }

  @Patch(':id')
  @RequireScopes('portal:write')
  @ApiOperation({
    summary: 'Change a customer',
    description:
      'Changes the fields sent (name, external_id, metadata, status) and keeps the others. `status: "disabled"` disables the customer (tenant callers only).',
  })
  @ApiConflictResponse({ description: 'A customer with this external_id already exists' })
  @ApiOkResponse({ type: CustomerResponseDto, description: 'The customer', example: EXAMPLE })
  update(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: UpdateCustomerRequestDto): Promise<CustomerRecord> {
    return this.bus.request(AccountSubjects.customersUpdate, { id, ...body }, messageContext(p));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('portal:write')
  @ApiOperation({
    summary: 'Delete a customer',
    description:
      "Deletes the customer and revokes its API keys: they fail with 401 in every service at once; their records stay, `revoked`. The customer's embed tokens stop working.",
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    await this.bus.request(AccountSubjects.customersDelete, { id }, messageContext(p));
  }
}
