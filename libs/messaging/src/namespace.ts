/**
 * Several platforms may share one NATS server (parallel test runs, a developer's platform beside
 * the test suite's). A namespace prefixes every subject and stream of one platform so they never
 * answer each other's requests or consume each other's work. Empty in a normal deployment.
 */
let current = '';

const VALID = /^[a-z0-9_-]{0,40}$/;

export function configureNamespace(namespace: string): void {
  if (!VALID.test(namespace)) throw new Error(`NATS_NAMESPACE must match ${VALID} (got '${namespace}')`);
  current = namespace;
}

export function currentNamespace(): string {
  return current;
}

/** `account.keys.verify` → `<ns>.account.keys.verify`; idempotent. */
export function namespaced(subject: string): string {
  if (!current || subject.startsWith(`${current}.`)) return subject;
  return `${current}.${subject}`;
}

/** What the names of a namespace's JetStream streams start with (`e2e-ab12` → `E2E_AB12_`). */
export function streamPrefix(namespace: string): string {
  return `${namespace.toUpperCase().replace(/-/g, '_')}_`;
}
