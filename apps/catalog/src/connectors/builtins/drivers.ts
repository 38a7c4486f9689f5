import type { ConnectorDefinition } from '@platform/messaging';
import { anyObject, int, obj, str } from './shared.js';

const HOST = str('Host name or address', { minLength: 1, maxLength: 255 });

/** PostgreSQL: parameterised queries through `pg` (code, not HTTP: a definition cannot say it). */
export const POSTGRESQL_CONNECTOR: ConnectorDefinition = {
  id: 'postgresql',
  name: 'PostgreSQL',
  version: '1.0.0',
  description: 'Runs parameterised SQL ($1, $2, …) on a PostgreSQL database with the connection’s user.',
  categories: ['data'],
  icon: 'https://cdn.platform.local/icons/postgresql.svg',
  publisher: 'platform',
  auth: [{ type: 'basic' }],
  base_url: null,
  settings_schema: obj(
    {
      host: HOST,
      port: int('Port', { minimum: 1, maximum: 65535, default: 5432 }),
      database: str('Database name', { minLength: 1 }),
      ssl: { enum: ['disable', 'require', 'verify-full'], default: 'verify-full' },
      statement_timeout_ms: int('Per-query time limit', { minimum: 100, maximum: 300_000, default: 30_000 }),
    },
    ['host', 'database'],
  ),
  driver: 'postgres',
  operations: [
    {
      id: 'query',
      name: 'Run a query',
      description: 'One SQL statement with positional parameters; answers the rows (at most max_rows).',
      input_schema: obj(
        {
          sql: str('One SQL statement; values go in params as $1, $2, …', { minLength: 1, maxLength: 100_000 }),
          params: { type: 'array', maxItems: 1000 },
          max_rows: int('Rows returned at most', { minimum: 1, maximum: 10_000, default: 1000 }),
        },
        ['sql'],
      ),
      output_schema: obj({
        rows: { type: 'array', items: {} },
        row_count: { type: ['integer', 'null'] },
        fields: { type: 'array', items: {} },
        truncated: { type: 'boolean' },
      }),
    },
  ],
  test_operation: { operation: 'query', input: { sql: 'select 1 as ok' } },
};

/** SMTP e-mail through nodemailer. */
export const SMTP_CONNECTOR: ConnectorDefinition = {
  id: 'smtp',
  name: 'SMTP e-mail',
  version: '1.0.0',
  description: 'Sends e-mail through an SMTP server (TLS or STARTTLS).',
  categories: ['communication'],
  icon: 'https://cdn.platform.local/icons/email.svg',
  publisher: 'platform',
  auth: [{ type: 'basic' }, { type: 'none' }],
  base_url: null,
  settings_schema: obj(
    {
      host: HOST,
      port: int('Port', { minimum: 1, maximum: 65535, default: 587 }),
      security: { enum: ['tls', 'starttls', 'none'], default: 'starttls' },
      from: str('Sender address', { minLength: 3 }),
    },
    ['host', 'from'],
  ),
  driver: 'smtp',
  operations: [
    {
      id: 'send_email',
      name: 'Send an e-mail',
      description: 'Sends one message; text, HTML or both.',
      input_schema: obj(
        {
          to: { anyOf: [str('Recipient', { minLength: 3 }), { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 50 }] },
          cc: { type: 'array', items: { type: 'string' } },
          subject: str('Subject', { maxLength: 998 }),
          text: str('Plain text body'),
          html: str('HTML body'),
          reply_to: str('Reply-To'),
          headers: anyObject,
        },
        ['to', 'subject'],
      ),
      output_schema: obj({ message_id: str('Message-ID'), accepted: { type: 'array', items: {} }, rejected: { type: 'array', items: {} } }),
    },
    {
      id: 'verify',
      name: 'Check the server',
      description: 'Connects, negotiates TLS and logs in without sending anything.',
      input_schema: obj({}),
      output_schema: obj({ ok: { type: 'boolean' } }),
    },
  ],
  test_operation: { operation: 'verify', input: {} },
};
