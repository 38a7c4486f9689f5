import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parseAllDocuments } from 'yaml';
import { METRICS_PORT_OFFSET, SERVICE_NAMES } from '@platform/common';
import { REPO_ROOT } from '@platform/launcher';
import { KB_INDEX_QUEUE, NOTIFICATION_DELIVERY_QUEUE, RUN_WORK_QUEUE, type WorkQueueSpec } from '@platform/messaging';
import { SYSTEM_POOL_SIZE } from '@platform/service';
import { MIGRATE_SECRETS, secretsReadBy, type SecretSetting } from './service-secrets.js';

/**
 * deploy/k8s is a kustomize base and its overlays. Each is rendered as `kubectl kustomize` renders
 * it for `kubectl apply -k`, every object is validated against the Kubernetes schemas
 * (kubernetes-models), KEDA's ScaledObjects against their structure, and the rules of a real
 * cluster are checked: a PodDisruptionBudget per process, autoscalers by role, Secrets holding only
 * what each process reads, and the PostgreSQL connection budget.
 */

/** The fields of the rendered objects the checks read: each is read only on the kinds that have it. */
interface Spec {
  replicas?: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
  ports?: { name: string; port: number; targetPort: string | number }[];
  scaleTargetRef: { name: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: unknown[];
  minReplicaCount?: number;
  maxReplicaCount?: number;
  triggers: { type: string; metadata: Record<string, string> }[];
  advanced?: { horizontalPodAutoscalerConfig?: { behavior?: unknown } };
}

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  /** Absent on ConfigMaps and Secrets, which are read through data and stringData. */
  spec: Spec;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string }[];
  resources?: { requests?: { cpu: string; memory: string } };
  ports?: { name: string; containerPort: number }[];
}

interface ServiceMonitor {
  metadata: { name: string };
  spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port?: string; path?: string; honorLabels?: boolean }[] };
}

interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
}

const OVERLAYS = ['base', 'overlays/production', 'overlays/production-prometheus-operator'] as const;
/** Overlays that include components/prometheus-operator: a ServiceMonitor per process. */
const PROMETHEUS_OPERATOR_OVERLAYS: readonly string[] = ['overlays/production-prometheus-operator'];
const WORKERS: Record<string, WorkQueueSpec | undefined> = {
  run: RUN_WORK_QUEUE,
  notification: NOTIFICATION_DELIVERY_QUEUE,
  'kb-worker': KB_INDEX_QUEUE,
  // Consumes no JetStream queue: a delivery's run start waits in its own table (see autoscaling.yaml).
  webhook: undefined,
};
const PROCESSES = ['gateway', ...SERVICE_NAMES];
/** Connections kept out of the services' budget: superuser_reserved_connections (3), the migrate job, `npm run admin`, an operator's psql. */
const RESERVED_CONNECTIONS = 10;

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const hasKubectl = !kubectl.error;
if (!hasKubectl) {
  console.warn(
    `SKIPPED: the Kubernetes manifests are not rendered: kubectl is not installed (${kubectl.error?.message}). Install kubectl to run deploy/k8s's checks.`,
  );
}

function render(overlay: string): K8sObject[] {
  const result = spawnSync('kubectl', ['kustomize', join(REPO_ROOT, 'deploy/k8s', overlay)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${overlay} failed: ${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

type ModelClass = new (data: unknown) => { validate(): void };

/**
 * The kubernetes-models class of an object (`apps/v1` + `Deployment` → kubernetes-models/apps/v1/Deployment);
 * the Prometheus Operator's CRDs (ServiceMonitor) from @kubernetes-models/prometheus-operator, made
 * from the operator's own CRD schemas.
 */
async function modelOf(object: K8sObject): Promise<ModelClass> {
  const models = object.apiVersion.startsWith('monitoring.coreos.com/') ? '@kubernetes-models/prometheus-operator' : 'kubernetes-models';
  const module = (await import(`${models}/${object.apiVersion}/${object.kind}`)) as Record<string, ModelClass>;
  const model = module[object.kind];
  if (!model) throw new Error(`kubernetes-models has no ${object.apiVersion} ${object.kind}`);
  return model;
}

/** KEDA's ScaledObject (keda.sh/v1alpha1) is a CRD, outside the Kubernetes schemas: its structure, as KEDA 2.x documents it. */
const SCALED_OBJECT_SCHEMA = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'keda.sh/v1alpha1' },
    kind: { const: 'ScaledObject' },
    metadata: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' } } },
    spec: {
      type: 'object',
      required: ['scaleTargetRef', 'triggers'],
      additionalProperties: false,
      properties: {
        scaleTargetRef: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string' }, kind: { type: 'string' }, apiVersion: { type: 'string' }, envSourceContainerName: { type: 'string' } },
        },
        minReplicaCount: { type: 'integer', minimum: 0 },
        maxReplicaCount: { type: 'integer', minimum: 1 },
        idleReplicaCount: { type: 'integer', minimum: 0 },
        pollingInterval: { type: 'integer', minimum: 1 },
        cooldownPeriod: { type: 'integer', minimum: 0 },
        initialCooldownPeriod: { type: 'integer', minimum: 0 },
        fallback: { type: 'object' },
        advanced: {
          type: 'object',
          additionalProperties: false,
          properties: {
            restoreToOriginalReplicaCount: { type: 'boolean' },
            horizontalPodAutoscalerConfig: {
              type: 'object',
              additionalProperties: false,
              properties: { name: { type: 'string' }, behavior: { type: 'object' } },
            },
            scalingModifiers: { type: 'object' },
          },
        },
        triggers: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['type', 'metadata'],
            additionalProperties: false,
            properties: {
              type: { type: 'string' },
              name: { type: 'string' },
              metricType: { enum: ['AverageValue', 'Value', 'Utilization'] },
              useCachedMetrics: { type: 'boolean' },
              authenticationRef: { type: 'object' },
              // KEDA reads every trigger setting as a string
              metadata: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
        },
      },
    },
  },
};
const validateScaledObject = new Ajv2019({ allErrors: true }).compile(SCALED_OBJECT_SCHEMA);

/** The settings of the nats-jetstream scaler (https://keda.sh/docs/2.x/scalers/nats-jetstream/) this repository relies on. */
const JETSTREAM_TRIGGER_KEYS = ['natsServerMonitoringEndpoint', 'account', 'stream', 'consumer', 'lagThreshold'];

(hasKubectl ? describe.each(OVERLAYS) : describe.skip.each(OVERLAYS))('deploy/k8s/%s', (overlay) => {
  const objects = hasKubectl ? render(overlay) : [];
  const ofKind = (kind: string) => objects.filter((object) => object.kind === kind);
  const deployments = ofKind('Deployment');
  const podOf = (name: string) => deployments.find((d) => d.metadata.name === name)?.spec.template.spec as PodSpec;
  const config = ofKind('ConfigMap').find((c) => c.metadata.name === 'platform-config');
  const secrets = new Map(ofKind('Secret').map((s) => [s.metadata.name, Object.keys({ ...s.data, ...s.stringData })]));
  const hpas = ofKind('HorizontalPodAutoscaler');
  const scaledObjects = ofKind('ScaledObject');

  it('renders every process once, with its Service and PodDisruptionBudget', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...PROCESSES].sort());
    expect(
      ofKind('Service')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual([...PROCESSES].sort());
    expect(ofKind('Job').map((j) => j.metadata.name)).toEqual(['platform-migrate']);
  });

  it.each(PROCESSES)('%s: exposes its metrics port (public port + 1000) to the cluster, announced for scraping', (name) => {
    const deployment = deployments.find((d) => d.metadata.name === name)!;
    const ports = Object.fromEntries((deployment.spec.template.spec.containers[0].ports ?? []).map((p) => [p.name, p.containerPort]));
    expect(ports.metrics).toBe(ports.http + METRICS_PORT_OFFSET);
    expect(deployment.spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(ports.metrics),
      'prometheus.io/path': '/metrics',
    });
    const service = ofKind('Service').find((s) => s.metadata.name === name)!;
    expect(service.spec.ports).toContainEqual(expect.objectContaining({ name: 'metrics', port: ports.metrics, targetPort: 'metrics' }));
  });

  it('every Kubernetes object is valid against the Kubernetes schemas', async () => {
    const invalid: string[] = [];
    for (const object of objects.filter((o) => o.kind !== 'ScaledObject')) {
      const Model = await modelOf(object);
      try {
        new Model(object).validate();
      } catch (error) {
        invalid.push(`${object.kind}/${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(invalid).toEqual([]);
  });

  it.each(PROCESSES)('%s: scraped by one ServiceMonitor on its metrics port when the Prometheus Operator component is in', (name) => {
    const monitors = ofKind('ServiceMonitor') as unknown as ServiceMonitor[];
    if (!PROMETHEUS_OPERATOR_OVERLAYS.includes(overlay)) {
      expect(monitors).toEqual([]);
      return;
    }
    const service = ofKind('Service').find((s) => s.metadata.name === name) as unknown as { metadata: { labels: Record<string, string> }; spec: Spec };
    const selecting = monitors.filter((m) => Object.entries(m.spec.selector.matchLabels).every(([key, value]) => service.metadata.labels[key] === value));
    expect(selecting.map((m) => m.metadata.name)).toEqual([name]);
    const metricsPort = service.spec.ports?.find((p) => p.name === 'metrics');
    expect(metricsPort).toBeDefined();
    expect(selecting[0].spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics', honorLabels: true })]);
  });

  it.each(PROCESSES)('%s: one PodDisruptionBudget selects its pods', (name) => {
    const labels = deployments.find((d) => d.metadata.name === name)?.spec.template.metadata.labels ?? {};
    const matching = ofKind('PodDisruptionBudget').filter((pdb) =>
      Object.entries(pdb.spec.selector.matchLabels).every(([key, value]) => labels[key] === value),
    );
    expect(matching.map((pdb) => pdb.metadata.name)).toEqual([name]);
  });

  it.each(PROCESSES)('%s: its pods hold the secrets it reads and no other', (name) => {
    const pod = podOf(name);
    const given = new Set<SecretSetting>();
    for (const container of pod.containers) {
      for (const source of container.envFrom ?? []) {
        if (source.secretRef)
          for (const key of secrets.get(source.secretRef.name) ?? [`missing Secret ${source.secretRef.name}`]) given.add(key as SecretSetting);
      }
      for (const variable of container.env ?? []) if (variable.valueFrom?.secretKeyRef) given.add(variable.name as SecretSetting);
      // The master key ring is a mounted file: MASTER_KEYS_FILE names it inside a mounted Secret.
      const keyFile = container.env?.find((v) => v.name === 'MASTER_KEYS_FILE')?.value;
      const mount = container.volumeMounts?.find((m) => keyFile?.startsWith(`${m.mountPath}/`));
      const volume = pod.volumes?.find((v) => v.name === mount?.name);
      if (keyFile && volume?.secret?.secretName === 'platform-master-keys' && secrets.get('platform-master-keys')?.includes('master-keys'))
        given.add('MASTER_KEYS');
    }
    const mountedSecrets = (pod.volumes ?? []).filter((v) => v.secret).map((v) => v.secret?.secretName);
    expect(mountedSecrets).toEqual(given.has('MASTER_KEYS') ? ['platform-master-keys'] : []);
    expect([...given].sort()).toEqual(secretsReadBy(name).sort());
  });

  it('gives the migrate job the admin URL and the role passwords, and never a master key default', () => {
    const job = ofKind('Job')[0];
    const container = job.spec.template.spec.containers[0];
    const keys = (container.envFrom ?? []).flatMap((source) => (source.secretRef ? (secrets.get(source.secretRef.name) ?? []) : []));
    expect(keys.sort()).toEqual([...MIGRATE_SECRETS].sort());
    for (const object of [...ofKind('ConfigMap'), ...ofKind('Secret')]) {
      const keysOf = Object.keys({ ...object.data, ...object.stringData });
      expect({ object: object.metadata.name, masterKeys: keysOf.filter((key) => /^MASTER_KEY/.test(key)) }).toEqual({
        object: object.metadata.name,
        masterKeys: [],
      });
    }
    for (const deployment of deployments) {
      for (const container of deployment.spec.template.spec.containers) {
        expect((container.env ?? []).filter((v) => /^MASTER_KEYS?$/.test(v.name))).toEqual([]);
      }
    }
  });

  it('fits the PostgreSQL connection budget: every pool of every replica at full scale', () => {
    const maxConnections = Number(config?.metadata.annotations?.['platform/postgres-max-connections']);
    expect(maxConnections).toBeGreaterThan(0);
    const sharedPool = Number(config?.data?.DATABASE_POOL_SIZE ?? 10);
    const lines = SERVICE_NAMES.map((name) => {
      const container = podOf(name).containers[0];
      const pool = Number(container.env?.find((v) => v.name === 'DATABASE_POOL_SIZE')?.value ?? sharedPool);
      const system = secretsReadBy(name).includes('DATABASE_SYSTEM_PASSWORD') ? SYSTEM_POOL_SIZE : 0;
      // The notification service's delivery thread has pools of its own (NOTIFICATION_DELIVERY_THREAD).
      const processes = name === 'notification' ? 2 : 1;
      const replicas = maxReplicasOf(name);
      return { name, replicas, connections: replicas * processes * (pool + system) };
    });
    const total = lines.reduce((sum, line) => sum + line.connections, 0);
    const budget = maxConnections - RESERVED_CONNECTIONS;
    // on failure, the lines show where the connections go
    expect({ fits: total <= budget, total, budget, lines }).toEqual({ fits: true, total, budget, lines });
  });

  function maxReplicasOf(name: string): number {
    const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === name);
    const scaled = scaledObjects.find((s) => s.spec.scaleTargetRef.name === name);
    const deployment = deployments.find((d) => d.metadata.name === name);
    return Number(hpa?.spec.maxReplicas ?? scaled?.spec.maxReplicaCount ?? deployment?.spec.replicas ?? 1);
  }

  if (overlay === 'base') return;

  it('sizes each process by its role, not one size for all', () => {
    const requests = new Set(deployments.map((d) => JSON.stringify(d.spec.template.spec.containers[0].resources?.requests)));
    expect(requests.size).toBeGreaterThanOrEqual(4);
    const memoryOf = (name: string) => podOf(name).containers[0].resources?.requests?.memory;
    expect(memoryOf('run')).not.toEqual(memoryOf('catalog'));
    // the autoscalers own the replicas: `kubectl apply` must not reset them
    expect(deployments.filter((d) => d.spec.replicas !== undefined).map((d) => d.metadata.name)).toEqual([]);
  });

  it('keeps three copies of each JetStream stream', () => {
    expect(config?.data?.NATS_STREAM_REPLICAS).toBe('3');
  });

  it.each(PROCESSES.filter((name) => !(name in WORKERS)))('%s: scales on CPU with a HorizontalPodAutoscaler', (name) => {
    const hpa = hpas.filter((h) => h.spec.scaleTargetRef.name === name);
    expect(hpa).toHaveLength(1);
    expect(hpa[0].spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa[0].spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } },
    ]);
    expect(scaledObjects.filter((s) => s.spec.scaleTargetRef.name === name)).toEqual([]);
  });

  it.each(Object.keys(WORKERS))('%s: scales with a KEDA ScaledObject on its JetStream consumer lag, and no HPA of its own', (name) => {
    const scaled = scaledObjects.filter((s) => s.spec.scaleTargetRef.name === name);
    expect(scaled).toHaveLength(1);
    const valid = validateScaledObject(scaled[0]);
    expect(validateScaledObject.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // KEDA makes an HPA from the ScaledObject's behaviour: it must be a valid one.
    expect(() =>
      new hpaModel({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name },
        spec: { scaleTargetRef: { kind: 'Deployment', name }, maxReplicas: 1, behavior: scaled[0].spec.advanced?.horizontalPodAutoscalerConfig?.behavior },
      }).validate(),
    ).not.toThrow();
    expect(scaled[0].spec.minReplicaCount).toBeGreaterThanOrEqual(2);
    expect(scaled[0].spec.maxReplicaCount).toBeGreaterThan(scaled[0].spec.minReplicaCount ?? 0);
    expect(hpas.filter((h) => h.spec.scaleTargetRef.name === name)).toEqual([]);
    const queue = WORKERS[name];
    const triggers = scaled[0].spec.triggers;
    const jetstream = triggers.filter((t) => t.type === 'nats-jetstream');
    if (!queue) {
      expect(jetstream).toEqual([]);
      expect(triggers.map((t) => t.type)).toEqual(['cpu']);
      return;
    }
    expect(jetstream).toHaveLength(1);
    expect(Object.keys(jetstream[0].metadata)).toEqual(expect.arrayContaining(JETSTREAM_TRIGGER_KEYS));
    // the queue the worker consumes, as libs/messaging declares it
    expect({ stream: jetstream[0].metadata.stream, consumer: jetstream[0].metadata.consumer }).toEqual({ stream: queue.stream, consumer: queue.consumer });
    expect(Number(jetstream[0].metadata.lagThreshold)).toBeGreaterThan(0);
  });
});

let hpaModel: ModelClass;
if (hasKubectl) {
  hpaModel = (await import('kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler')).HorizontalPodAutoscaler as unknown as ModelClass;
}

describe('deploy/k8s', () => {
  it('validates ServiceMonitors against the operator schema: a wrong field is refused', async () => {
    const { ServiceMonitor } = await import('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor');
    const monitor = (endpoint: Record<string, unknown>) =>
      new ServiceMonitor({ metadata: { name: 'm' }, spec: { selector: { matchLabels: { a: 'b' } }, endpoints: [endpoint] } });
    expect(() => monitor({ port: 'metrics', path: '/metrics' }).validate()).not.toThrow();
    expect(() => monitor({ port: 'metrics', interval: 30 }).validate()).toThrow();
  });

  it('is rendered by kubectl kustomize', () => {
    if (!hasKubectl) console.warn('SKIPPED: kubectl is not installed; deploy/k8s was not rendered.');
    expect(readFileSync(join(REPO_ROOT, 'deploy/k8s/overlays/production/kustomization.yaml'), 'utf8')).toContain('../../base');
  });
});
