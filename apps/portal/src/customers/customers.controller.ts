import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { AccountSubjects, Bus, messageContext, type CustomerPage, type CustomerRecord } from '@platform/messaging';
import { CreateCustomerRequestDto, ListCustomersQueryDto, UpdateCustomerRequestDto } from './dto/customer.request.dto.js';

const EXAMPLE = { id: '0194…', name: 'Globex Corporation', external_id: 'crm-4711', metadata: { plan: 'gold' }, created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z' };


/** Customers (execution scopes): stored by the account service, served here. A customer's id is the X-Scope-Key value. */
@ApiTags('customers')
@Controller('portal/customers')
export class CustomersController {
  constructor(private readonly bus: Bus) {}

  @Post()
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Create a customer' })
  @ApiCreatedResponse({ schema: { example: EXAMPLE } })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateCustomerRequestDto): Promise<CustomerRecord> {
    return this.bus.request(AccountSubjects.customersCreate, { ...body }, messageContext(p));
  }

  @Get()
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'List customers' })
  @ApiOkResponse({ schema: { example: { data: [EXAMPLE], next_cursor: null } } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListCustomersQueryDto): Promise<CustomerPage> {
    return this.bus.request(AccountSubjects.customersList, { limit: query.limit, cursor: query.cursor, external_id: query.external_id }, messageContext(p));
  }

  @Get(':id')
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'Get a customer' })
  @ApiOkResponse({ schema: { example: EXAMPLE } })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<CustomerRecord> {
    return this.bus.request(AccountSubjects.customersGet, { id }, messageContext(p));
  }

  @Patch(':id')
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Change a customer' })
  @ApiOkResponse({ schema: { example: EXAMPLE } })
  update(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: UpdateCustomerRequestDto): Promise<CustomerRecord> {
    return this.bus.request(AccountSubjects.customersUpdate, { id, ...body }, messageContext(p));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Delete a customer (409 while it still has API keys)' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    await this.bus.request(AccountSubjects.customersDelete, { id }, messageContext(p));
  }
}
