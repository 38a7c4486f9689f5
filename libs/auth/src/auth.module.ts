import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Authenticator, RejectAllAuthenticator } from './authenticator.js';
import { TenantGuard } from './tenant.guard.js';

export interface AuthModuleOptions {
  /** How credentials are verified; defaults to refusing every protected route. */
  authenticator?: Type<Authenticator>;
  /** Providers the authenticator depends on. */
  providers?: Provider[];
}

@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions = {}): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      providers: [
        ...(options.providers ?? []),
        { provide: Authenticator, useClass: options.authenticator ?? RejectAllAuthenticator },
        { provide: APP_GUARD, useClass: TenantGuard },
      ],
      exports: [Authenticator],
    };
  }
}
