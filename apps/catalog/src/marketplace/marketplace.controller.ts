import { Controller, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { InstallResponseDto, ListingResponseDto, ListMarketplaceQueryDto } from './dto/marketplace.dto.js';
import { MarketplaceService } from './marketplace.service.js';

/** The marketplace: published connectors and templates, installed per environment. */
@ApiTag('catalog', 'Connectors, workflow templates and the marketplace: what workflows can talk to and start from.')
@Controller('catalog/marketplace')
export class MarketplaceController {
  constructor(private readonly marketplace: MarketplaceService) {}

  @Get()
  @RequireScopes('connections:read')
  @ApiOperation({
    summary: 'Browse marketplace',
    description: 'Published connectors and templates with publisher, version and installs. Filters: `kind`, `category`, `q`.',
  })
  @ApiPageResponse(ListingResponseDto)
  list(@CurrentPrincipal() p: Principal, @Query() q: ListMarketplaceQueryDto): Promise<Page<ListingResponseDto>> {
    return this.marketplace.list(p, q);
  }

  @Post(':id/install')
  @RequireScopes('connections:write', 'workflows:write')
  @ApiOperation({
    summary: 'Install a marketplace listing',
    description: 'A connector: its definition is installed into the environment (again: upgraded to the listed version). A template: its workflow is created.',
  })
  @ApiCreatedResponse({
    type: InstallResponseDto,
    description: 'Installed',
    example: { listing_id: '01937c2e-6a55-7cc1-9a3e-1f2a3b4c5d6e', kind: 'connector', connector_id: 'pagerduty', version: '1.2.0' },
  })
  @ApiNotFoundResponse({ description: 'No such listing' })
  install(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<InstallResponseDto> {
    return this.marketplace.install(p, id);
  }
}
