import { describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, Post } from '@nestjs/common';
import { findUndecidedRoutes, Public, RequireScopes, SystemRoute } from '@platform/auth';
import { SERVICE_NAMES } from '@platform/common';
import { HealthController } from '@platform/service';

// Every HTTP route of every service must say who may call it: @Public(), @SystemRoute() or
// @RequireScopes(...). The guard refuses an undecided route at run time; this fails CI first.
describe('route access decisions', () => {
  it.each(SERVICE_NAMES)('every route of %s states its access', async (name) => {
    const { AppModule } = (await import(`@platform/${name}/app-module`)) as { AppModule: new () => unknown };
    expect(findUndecidedRoutes(AppModule)).toEqual([]);
  });

  it('every route every service gets from the platform states its access', () => {
    @Module({ controllers: [HealthController] })
    class PlatformRoutes {}
    expect(findUndecidedRoutes(PlatformRoutes)).toEqual([]);
  });

  describe('the check itself', () => {
    @Controller('things')
    class ThingsController {
      @Get()
      @RequireScopes('things:read')
      list(): void {}

      @Post()
      create(): void {}

      @Get('open')
      @Public()
      open(): void {}

      @Post('admin')
      @SystemRoute()
      admin(): void {}

      helper(): void {}
    }

    @Public()
    @Controller('public')
    class PublicController {
      @Get()
      anything(): void {}
    }

    @Module({ controllers: [ThingsController] })
    class ThingsModule {}

    @Module({ imports: [ThingsModule, { module: class Dynamic {}, controllers: [PublicController] }] })
    class RootModule {}

    it('fails for a route without a decision, found through imported and dynamic modules', () => {
      expect(findUndecidedRoutes(RootModule)).toEqual([{ controller: 'ThingsController', handler: 'create', method: 'POST', path: '/things' }]);
    });
  });
});
