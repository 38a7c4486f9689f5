import { describe, expect, it } from '@jest/globals';
import { loadGatewayConfig } from '../config/gateway.config.js';
import { RouteTimeouts } from './route-timeouts.js';

describe('RouteTimeouts', () => {
  it('waits on the AI routes for the provider timeout plus the margin, elsewhere UPSTREAM_TIMEOUT_MS', () => {
    const timeouts = new RouteTimeouts(loadGatewayConfig({}));
    expect(timeouts.of('POST', { service: 'ai-runtime', upstreamPath: '/ai/chat' })).toBe(65_000);
    expect(timeouts.of('POST', { service: 'ai-runtime', upstreamPath: '/ai/embeddings?x=1' })).toBe(65_000);
    expect(timeouts.of('POST', { service: 'ai-runtime', upstreamPath: '/ai/agents/0194/execute' })).toBe(365_000);
    expect(timeouts.of('GET', { service: 'ai-runtime', upstreamPath: '/ai/models' })).toBe(30_000);
    expect(timeouts.of('POST', { service: 'run', upstreamPath: '/ai/chat' })).toBe(30_000);
  });

  it('waits on an execution read and a start for the longest Prefer: wait plus the margin, on the other run routes UPSTREAM_TIMEOUT_MS', () => {
    const timeouts = new RouteTimeouts(loadGatewayConfig({}));
    expect(timeouts.of('GET', { service: 'run', upstreamPath: '/run/executions/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })).toBe(65_000);
    expect(timeouts.of('GET', { service: 'run', upstreamPath: '/run/executions/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e/logs' })).toBe(30_000);
    expect(timeouts.of('POST', { service: 'run', upstreamPath: '/run/executions/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e/cancel' })).toBe(30_000);
    expect(timeouts.of('GET', { service: 'run', upstreamPath: '/run/executions?limit=5' })).toBe(30_000);
    expect(timeouts.of('POST', { service: 'run', upstreamPath: '/v1/automations/run' })).toBe(65_000);
    expect(timeouts.of('POST', { service: 'run', upstreamPath: '/run/workflows/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e/execute' })).toBe(65_000);
    expect(new RouteTimeouts(loadGatewayConfig({ EXECUTION_WAIT_MAX_MS: '120000' })).of('GET', { service: 'run', upstreamPath: '/run/executions/x' })).toBe(
      125_000,
    );
  });

  it('follows the services’ settings and never waits less than UPSTREAM_TIMEOUT_MS', () => {
    const config = loadGatewayConfig({ AI_PROVIDER_TIMEOUT_MS: '2000', UPSTREAM_TIMEOUT_MARGIN_MS: '1000', UPSTREAM_TIMEOUT_MS: '1500' });
    expect(new RouteTimeouts(config).of('POST', { service: 'ai-runtime', upstreamPath: '/ai/generate' })).toBe(3000);
    const short = loadGatewayConfig({ AI_PROVIDER_TIMEOUT_MS: '1000', UPSTREAM_TIMEOUT_MS: '30000' });
    expect(new RouteTimeouts(short).of('POST', { service: 'ai-runtime', upstreamPath: '/ai/generate' })).toBe(30_000);
  });
});
