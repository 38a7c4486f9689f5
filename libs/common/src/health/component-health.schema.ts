/**
 * The OpenAPI schema of one checked component in a health report (`database`, `nats`, …), shared
 * by the services' `/actuator/health` and the gateway's aggregated one.
 */
export const COMPONENT_HEALTH_SCHEMA = {
  type: 'object',
  required: ['status', 'latency_ms'],
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    latency_ms: { type: 'number', description: 'How long the check took' },
    error: { type: 'string', description: 'Why the component is DOWN' },
  },
};
