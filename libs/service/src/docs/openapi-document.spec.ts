/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- the assertions walk OpenAPI documents, untyped JSON of any shape */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, Module, Param, Patch, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Public, RequireScopes, SystemRoute } from '@platform/auth';
import { SERVICES } from '@platform/common';
import { plannedRoutesController } from '../platform/planned-routes.js';
import { ApiTag } from './api-tag.js';
import { buildOpenApiDocument } from './openapi.js';
import { operationIdFor } from './openapi-document.js';

class CreateThingRequestDto {
  @ApiProperty({ example: 'a thing', minLength: 1 })
  name!: string;
}

class PatchThingRequestDto {
  @ApiPropertyOptional({ example: 'renamed' })
  name?: string;
}

@ApiTag('things', 'Things of the tenant')
@Controller()
class ThingsController {
  @Post(['api/v1/workflow/things', 'things'])
  @RequireScopes('things:write')
  @ApiOperation({ summary: 'Create a thing', description: 'Makes one.' })
  @ApiConflictResponse({ description: 'A thing with this name already exists' })
  @ApiCreatedResponse({ description: 'The thing', schema: { example: { name: 'a thing' } } })
  create(@Body() body: CreateThingRequestDto) {
    return body;
  }

  @Patch('things/:id')
  @RequireScopes('things:write')
  @ApiOperation({ summary: 'Change a thing', description: 'Changes the fields given.' })
  @ApiOkResponse({ description: 'The thing', schema: { example: { name: 'renamed' } } })
  patch(@Param('id') id: string, @Body() body: PatchThingRequestDto) {
    return { id, ...body };
  }

  @Get('things/:id')
  @RequireScopes()
  @ApiOperation({ summary: 'Get a thing', description: 'One thing.' })
  @ApiOkResponse({ description: 'The thing', schema: { example: { id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' } } })
  get(@Param('id') id: string) {
    return { id };
  }

  @Get('thing-kinds/:id')
  @RequireScopes()
  @ApiParam({ name: 'id', description: 'A slug', schema: { type: 'string', minLength: 1, maxLength: 200, example: 'big' } })
  @ApiOperation({ summary: 'Get a kind of thing', description: 'Kinds are named by slugs.' })
  @ApiOkResponse({ description: 'The kind', schema: { example: { id: 'big' } } })
  kind(@Param('id') id: string) {
    return { id };
  }

  @Get('things-status')
  @Public()
  @ApiOperation({ summary: 'Status', description: 'Public.' })
  status() {
    return {};
  }

  @Post('things/system')
  @SystemRoute('admin')
  @ApiOperation({ summary: 'System', description: 'Admin only.' })
  system() {
    return {};
  }
}

@ApiTags('untagged')
@Controller()
class UndescribedController {
  @Get('undescribed')
  @Public()
  @ApiOperation({ summary: 'Undescribed', description: 'Its tag has no description.' })
  get() {
    return {};
  }
}

@Module({
  controllers: [ThingsController, UndescribedController, plannedRoutesController([{ method: 'GET', path: '/things/planned', summary: 'List planned things' }])],
})
class ThingsModule {}

type Json = Record<string, any>;

describe('the OpenAPI document of a service', () => {
  let app: INestApplication;
  let doc: Json;

  beforeAll(async () => {
    app = await NestFactory.create(ThingsModule, { logger: false });
    doc = buildOpenApiDocument(app, SERVICES.catalog, { plannedRoutes: [{ method: 'GET', path: '/things/planned', summary: 'List planned things' }] });
  });

  afterAll(async () => {
    await app.close();
  });

  it('prefixes operation ids with the service and names the /api/v1/workflow form apart, whatever the order of paths', () => {
    expect(doc.paths['/things'].post.operationId).toBe('catalog_things_create');
    expect(doc.paths['/api/v1/workflow/things'].post.operationId).toBe('catalog_things_create_apiV1');
    expect(doc.paths['/things/{id}'].get.operationId).toBe('catalog_things_get');
    expect(operationIdFor('kb-worker', 'HealthController.health', '/actuator/health')).toBe('kbWorker_health_health');
  });

  it('documents each kind of route with its own security', () => {
    expect(doc.paths['/things'].post.security).toEqual([{ api_key: [] }, { api_key_bearer: [] }, { jwt: [] }]);
    expect(doc.paths['/things-status'].get.security).toEqual([]);
    expect(doc.paths['/things/system'].post.security).toEqual([{ admin_token: [] }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['api_key', 'api_key_bearer', 'jwt', 'admin_token']));
    expect(doc.paths['/things'].post['x-required-scopes']).toEqual(['things:write']);
    expect(doc.paths['/things'].post['x-platform-auth']).toBeUndefined();
    expect(doc.paths['/things'].post.description).toContain('Requires the scope `things:write`');
    const headers = (doc.paths['/things'].post.parameters as Json[]).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers).toEqual(['X-SELECTED-TENANT', 'X-SELECTED-ENV', 'X-Scope-Key']);
  });

  it('documents every error a route can give with the error schema and examples', () => {
    const create = doc.paths['/things'].post;
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '409', '413', '415', '429', '500', '503']);
    for (const status of ['400', '401', '403', '409', '413', '415', '429', '500', '503']) {
      expect(create.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    const badRequest = create.responses['400'].content['application/json'].examples;
    expect(badRequest.validation_failed.value).toMatchObject({ status: 400, details: [{ field: 'name', message: expect.any(String) }] });
    expect(Object.keys(badRequest)).toEqual(expect.arrayContaining(['malformed_json', 'not_an_object', 'tenant_required']));
    expect(badRequest.not_an_object.value.message).toBe('The body must be a JSON object');
    expect(create.responses['409'].content['application/json'].examples.conflict.value.message).toBe('A thing with this name already exists');
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error', 'code', 'message', 'status', 'request_id'] });
    // A path id: described, a UUID, and 404 when there is no such thing.
    const get = doc.paths['/things/{id}'].get;
    expect(get.parameters.find((p: Json) => p.in === 'path')).toMatchObject({ name: 'id', description: "The thing's id", schema: { format: 'uuid' } });
    expect(get.responses['404']).toBeDefined();
    expect(get.responses['413']).toBeUndefined();
    // An id the route describes itself (a slug) is not documented as a UUID.
    const slug = doc.paths['/thing-kinds/{id}'].get.parameters.find((p: Json) => p.in === 'path');
    expect(slug.schema).toEqual({ type: 'string', minLength: 1, maxLength: 200, example: 'big' });
  });

  it('documents a body that may be left out (no required field) as not required, and one with a required field as required', () => {
    expect(doc.paths['/things'].post.requestBody.required).toBe(true);
    expect(doc.paths['/things/{id}'].patch.requestBody).toMatchObject({ required: false, description: expect.stringContaining('taken as `{}`') });
  });

  it('declares the tags operations use, with their descriptions', () => {
    expect(doc.tags).toEqual([{ name: 'things', description: 'Things of the tenant' }, { name: 'untagged' }]);
  });

  it('keeps planned routes out of the operations and lists them in the description', () => {
    expect(doc.paths['/things/planned']).toBeUndefined();
    expect(doc.info.description).toContain('- `GET /things/planned`: List planned things');
  });
});
