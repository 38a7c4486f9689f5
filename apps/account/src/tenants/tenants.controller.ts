import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentSystemPrincipal, SystemRoute, type SystemPrincipal } from '@platform/auth';
import { CreateTenantRequestDto, SignupRequestDto } from './dto/create-tenant.request.dto.js';
import type { ProvisionedTenant } from './tenant-provisioning.js';
import { TenantsService } from './tenants.service.js';

const EXAMPLE = {
  tenant_id: '0194…',
  user_id: '0194…',
  organization_id: '0194…',
  production_data_plane_id: '0194…',
  sandbox_data_plane_id: '0194…',
};

/** System-class routes (spec 5.4): authenticated, no tenant context. */
@ApiTags('tenants')
@Controller('account')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post('tenants')
  @SystemRoute()
  @ApiOperation({ summary: 'Initial tenant creation (platform admin token): the tenant, its owner, data planes and one live and one test key' })
  @ApiCreatedResponse({ schema: { example: { ...EXAMPLE, live_key: 'sv_live_…', test_key: 'sv_test_…' } } })
  create(@CurrentSystemPrincipal() caller: SystemPrincipal, @Body() body: CreateTenantRequestDto): Promise<ProvisionedTenant> {
    return this.tenants.create(caller, body.name, body.owner_email);
  }

  @Post('signup')
  @SystemRoute()
  @ApiOperation({ summary: 'Signup: a signed-in user (JWT, no X-SELECTED-TENANT) creates a tenant it owns' })
  @ApiCreatedResponse({ schema: { example: EXAMPLE } })
  signup(@CurrentSystemPrincipal() caller: SystemPrincipal, @Body() body: SignupRequestDto): Promise<ProvisionedTenant> {
    return this.tenants.signup(caller, body.tenant_name);
  }
}
