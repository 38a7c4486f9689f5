import { Body, Controller, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentSystemPrincipal, SystemRoute, type SystemPrincipal } from '@platform/auth';
import { ApiTag } from '@platform/service';
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
@ApiTag('tenants', 'Tenant creation (system routes, no tenant context): initial creation with the platform admin token, and signup of a signed-in user.')
@Controller('account')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post('tenants')
  @SystemRoute('admin')
  @ApiOperation({
    summary: 'Create a tenant (platform admin)',
    description:
      'Initial tenant creation with the platform admin token (`PLATFORM_ADMIN_TOKEN`): the tenant, its owner, an organization, the production and sandbox data planes, and one live and one test key with scope `*` (their values are shown only here).',
  })
  @ApiCreatedResponse({ description: 'The tenant and its keys', schema: { example: { ...EXAMPLE, live_key: 'sv_live_…', test_key: 'sv_test_…' } } })
  create(@CurrentSystemPrincipal() caller: SystemPrincipal, @Body() body: CreateTenantRequestDto): Promise<ProvisionedTenant> {
    return this.tenants.create(caller, body.name, body.owner_email);
  }

  @Post('signup')
  @SystemRoute('user')
  @ApiOperation({
    summary: 'Sign up: create a tenant for the signed-in user',
    description:
      "A signed-in user (a JWT sent without X-SELECTED-TENANT) creates a tenant it owns, with an organization and the production and sandbox data planes; no key is made (create one with the user's JWT and the new tenant).",
  })
  @ApiCreatedResponse({ description: 'The tenant', schema: { example: EXAMPLE } })
  @ApiBadRequestResponse({ description: 'The token carries no email claim; signup needs one' })
  signup(@CurrentSystemPrincipal() caller: SystemPrincipal, @Body() body: SignupRequestDto): Promise<ProvisionedTenant> {
    return this.tenants.signup(caller, body.tenant_name);
  }
}
