import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, RpcException, type MicroserviceOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError } from '@platform/common';
import { AccountSubjects, Bus, configureNamespace, connectNats, NamespacedServerNats, type Envelope } from '@platform/messaging';
import { DEFAULT_AUTH_OPTIONS } from '../src/auth.options.js';
import { CredentialsAuthenticator } from '../src/credentials.authenticator.js';
import { generateApiKey } from '../src/keys/api-key-format.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// A namespace of its own, so no account service on this NATS server answers these requests.
const NAMESPACE = `auth-down-${randomBytes(4).toString('hex')}`;

/** Which refusal the account side answers for a key, by a marker the test puts in the key's body. */
const REFUSALS: Record<string, { status: number; code: string; message: string; details?: unknown }> = {
  a: { status: 401, code: 'unauthorized', message: 'Invalid credentials' },
  b: { status: 403, code: 'tenant_suspended', message: 'The tenant is suspended', details: [{ field: 'tenant', message: 'is suspended' }] },
  c: { status: 429, code: 'rate_limited', message: 'Too many key verifications' },
  d: { status: 500, code: 'internal', message: 'Internal server error' },
};
const keys: Record<string, string> = {};

/** The account service's end of key verification, answering the refusals a real one can answer. */
@Controller()
class RefusingAccount {
  @MessagePattern(AccountSubjects.keysVerify)
  verify(@Payload() message: Envelope<{ key: string }>): never {
    const marker = Object.keys(keys).find((m) => keys[m] === message.data.key) ?? 'd';
    throw new RpcException(REFUSALS[marker]);
  }
}

@Module({ controllers: [RefusingAccount] })
class RefusingAccountModule {}

describe('CredentialsAuthenticator: a refusal from the account service stays the caller’s 4xx', () => {
  let account: INestMicroservice;
  let nc: NatsConnection;
  let authenticator: CredentialsAuthenticator;

  beforeAll(async () => {
    configureNamespace(NAMESPACE);
    account = await NestFactory.createMicroservice<MicroserviceOptions>(RefusingAccountModule, {
      strategy: new NamespacedServerNats({ servers: NATS_URL, queue: NAMESPACE }),
      logger: false,
    });
    await account.listen();
    nc = await connectNats({ url: NATS_URL, name: NAMESPACE });
    authenticator = new CredentialsAuthenticator(new Bus(nc), DEFAULT_AUTH_OPTIONS);
    for (const marker of Object.keys(REFUSALS)) keys[marker] = generateApiKey('live');
  });

  afterAll(async () => {
    await nc?.close();
    await account?.close();
    configureNamespace('');
  });

  async function refusalFor(marker: string): Promise<unknown> {
    return authenticator.authenticate({ headers: { 'x-api-key': keys[marker] } } as never).then(
      (principal) => {
        throw new Error(`expected a refusal, got ${JSON.stringify(principal)}`);
      },
      (error: unknown) => error,
    );
  }

  it.each([
    ['a', 401],
    ['b', 403],
    ['c', 429],
  ])('refusal %s answers %i with the account service’s code, message and details', async (marker, status) => {
    const error = await refusalFor(marker);
    expect(error).toBeInstanceOf(AppError);
    const { code, message, details } = REFUSALS[marker];
    expect(error).toMatchObject({ status, code, message });
    expect((error as AppError).details).toEqual(details);
  });

  it('a failure of the account service is still an outage (503), not a refusal', async () => {
    const error = await refusalFor('d');
    expect(error).not.toBeInstanceOf(AppError);
    expect((error as { getStatus(): number }).getStatus()).toBe(503);
  });
});
