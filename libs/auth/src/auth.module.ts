import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AUTH_OPTIONS, DEFAULT_AUTH_OPTIONS, type AuthOptions } from './auth.options.js';
import { Authenticator } from './authenticator.js';
import { CredentialsAuthenticator } from './credentials.authenticator.js';
import { TenantGuard } from './tenant.guard.js';
import { UsageRecorder } from './usage/usage.recorder.js';

export interface AuthModuleOptions {
  options?: Partial<AuthOptions>;
  /** Replaces credential checks (tests of other layers, the bench-only static mode). */
  authenticator?: Provider<Authenticator>;
}

/** The global TenantGuard and what it needs: API key verification over NATS, JWTs, usage recording. */
@Module({})
export class AuthModule {
  static forRoot(settings: AuthModuleOptions = {}): DynamicModule {
    const options: AuthOptions = { ...DEFAULT_AUTH_OPTIONS, ...(settings.options ?? {}) };
    return {
      module: AuthModule,
      global: true,
      providers: [
        { provide: AUTH_OPTIONS, useValue: options },
        UsageRecorder,
        settings.authenticator ?? { provide: Authenticator, useClass: CredentialsAuthenticator },
        { provide: APP_GUARD, useClass: TenantGuard },
      ],
      exports: [Authenticator, UsageRecorder, AUTH_OPTIONS],
    };
  }
}
