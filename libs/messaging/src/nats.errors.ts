/** Turns a connect failure into a sentence a person can act on. */
export function describeNatsError(error: unknown, url: string): string {
  const err = (error ?? {}) as { code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED|CONNECTION_REFUSED|connection refused/i.test(`${code} ${err.message}`)) {
    return `Cannot reach NATS at ${url} (connection refused). Start it with JetStream enabled (for example \`docker compose up -d nats\`, or \`nats-server -js\`) or set NATS_URL.`;
  }
  if (/timeout/i.test(`${code} ${err.message}`)) {
    return `NATS at ${url} did not answer in time. Check that it is running (\`docker compose up -d nats\`) or set NATS_URL.`;
  }
  return `NATS at ${url} failed: ${err.message ?? String(error)}`;
}

export class NatsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NatsUnavailableError';
  }
}
