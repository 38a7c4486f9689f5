import type { ConnectorDefinition } from '@platform/messaging';
import { anyObject, BASE_URL_SETTINGS, DEFAULT_RETRYABLE, int, obj, str } from './shared.js';

/** GitHub REST API (set base_url for GitHub Enterprise Server). */
export const GITHUB_CONNECTOR: ConnectorDefinition = {
  id: 'github',
  name: 'GitHub',
  version: '1.0.0',
  description: 'Repositories, issues and the authenticated user through the GitHub REST API.',
  categories: ['developer-tools'],
  icon: 'https://cdn.platform.local/icons/github.svg',
  publisher: 'platform',
  auth: [
    { type: 'bearer', prefix: 'Bearer ' },
    {
      type: 'oauth2_code',
      authorization_url: 'https://github.com/login/oauth/authorize',
      token_url: 'https://github.com/login/oauth/access_token',
      scopes: ['repo'],
    },
  ],
  base_url: 'https://api.github.com',
  settings_schema: BASE_URL_SETTINGS,
  driver: 'http',
  operations: [
    {
      id: 'get_authenticated_user',
      name: 'Get the authenticated user',
      description: 'The account the credentials belong to.',
      input_schema: obj({}),
      output_schema: obj({ login: str('Login'), id: { type: 'integer' } }),
      http: { method: 'GET', path: '/user', headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' } },
      retryable_statuses: DEFAULT_RETRYABLE,
    },
    {
      id: 'list_repositories',
      name: 'List repositories',
      description: 'Repositories of the authenticated user, a page at a time.',
      input_schema: obj({ per_page: int('Page size', { minimum: 1, maximum: 100 }), page: int('Page number', { minimum: 1 }) }),
      output_schema: { type: 'array', items: {} },
      http: {
        method: 'GET',
        path: '/user/repos',
        query: { per_page: '{{input.per_page}}', page: '{{input.page}}' },
        headers: { accept: 'application/vnd.github+json' },
      },
      pagination: { type: 'page', page_param: 'page', link_header: true },
      retryable_statuses: DEFAULT_RETRYABLE,
    },
    {
      id: 'create_issue',
      name: 'Create an issue',
      description: 'Opens an issue in a repository.',
      input_schema: obj(
        {
          owner: str('Repository owner', { minLength: 1 }),
          repo: str('Repository name', { minLength: 1 }),
          title: str('Title', { minLength: 1 }),
          body: str('Body (Markdown)'),
          labels: { type: 'array', items: { type: 'string' } },
        },
        ['owner', 'repo', 'title'],
      ),
      output_schema: obj({ number: { type: 'integer' }, html_url: str('Issue URL') }),
      http: {
        method: 'POST',
        path: '/repos/{{input.owner}}/{{input.repo}}/issues',
        headers: { accept: 'application/vnd.github+json' },
        body: { title: '{{input.title}}', body: '{{input.body}}', labels: '{{input.labels}}' },
      },
      retryable_statuses: DEFAULT_RETRYABLE,
    },
  ],
  test_operation: { operation: 'get_authenticated_user', input: {} },
};

/** Stripe API: a secret key as bearer token; Stripe takes form-encoded bodies. */
export const STRIPE_CONNECTOR: ConnectorDefinition = {
  id: 'stripe',
  name: 'Stripe',
  version: '1.0.0',
  description: 'Customers, payment intents and the balance of a Stripe account.',
  categories: ['payments'],
  icon: 'https://cdn.platform.local/icons/stripe.svg',
  publisher: 'platform',
  auth: [{ type: 'bearer', prefix: 'Bearer ' }, { type: 'basic' }],
  base_url: 'https://api.stripe.com/v1',
  settings_schema: BASE_URL_SETTINGS,
  driver: 'http',
  operations: [
    {
      id: 'get_balance',
      name: 'Get the balance',
      description: 'The account balance.',
      input_schema: obj({}),
      output_schema: obj({ object: str('balance'), available: { type: 'array', items: {} } }),
      http: { method: 'GET', path: '/balance' },
      retryable_statuses: [429, 500, 502, 503, 504],
    },
    {
      id: 'create_customer',
      name: 'Create a customer',
      description: 'Creates a customer; metadata keys become metadata[key].',
      input_schema: obj({ email: str('E-mail', { format: 'email' }), name: str('Name'), description: str('Description'), metadata: anyObject }),
      output_schema: obj({ id: str('cus_…'), object: str('customer') }),
      http: { method: 'POST', path: '/customers', body: '{{input}}', body_type: 'form' },
      retryable_statuses: [429, 500, 502, 503, 504],
      idempotency_header: 'Idempotency-Key',
    },
    {
      id: 'list_customers',
      name: 'List customers',
      description: 'Customers, newest first, a page at a time.',
      input_schema: obj({
        limit: int('Page size', { minimum: 1, maximum: 100 }),
        starting_after: str('Last id of the previous page'),
        email: str('Only this e-mail'),
      }),
      output_schema: obj({ data: { type: 'array', items: {} }, has_more: { type: 'boolean' } }),
      http: { method: 'GET', path: '/customers', query: '{{input}}' },
      pagination: { type: 'cursor', cursor_param: 'starting_after', next_cursor: 'data[-1].id', has_more: 'has_more' },
      retryable_statuses: [429, 500, 502, 503, 504],
    },
    {
      id: 'create_payment_intent',
      name: 'Create a payment intent',
      description: 'Creates a payment intent for an amount in the smallest currency unit.',
      input_schema: obj(
        {
          amount: int('Amount (cents)', { minimum: 1 }),
          currency: str('ISO currency', { minLength: 3, maxLength: 3 }),
          customer: str('Customer id'),
          metadata: anyObject,
        },
        ['amount', 'currency'],
      ),
      output_schema: obj({ id: str('pi_…'), status: str('Status'), client_secret: str('For the client') }),
      http: { method: 'POST', path: '/payment_intents', body: '{{input}}', body_type: 'form' },
      retryable_statuses: [429, 500, 502, 503, 504],
      idempotency_header: 'Idempotency-Key',
    },
  ],
  test_operation: { operation: 'get_balance', input: {} },
};

/** Google Sheets API v4 with Google OAuth 2.0. */
export const GOOGLE_SHEETS_CONNECTOR: ConnectorDefinition = {
  id: 'google-sheets',
  name: 'Google Sheets',
  version: '1.0.0',
  description: 'Reads and appends rows of Google Sheets spreadsheets.',
  categories: ['productivity', 'data'],
  icon: 'https://cdn.platform.local/icons/google-sheets.svg',
  publisher: 'platform',
  auth: [
    {
      type: 'oauth2_code',
      authorization_url: 'https://accounts.google.com/o/oauth2/v2/auth',
      token_url: 'https://oauth2.googleapis.com/token',
      scopes: ['https://www.googleapis.com/auth/spreadsheets'],
    },
    { type: 'bearer', prefix: 'Bearer ' },
  ],
  base_url: 'https://sheets.googleapis.com/v4',
  settings_schema: obj({
    base_url: str('Overrides the connector base URL', { format: 'uri', pattern: '^https?://' }),
    spreadsheet_id: str('A spreadsheet the connection test reads'),
  }),
  driver: 'http',
  operations: [
    {
      id: 'get_spreadsheet',
      name: 'Get a spreadsheet',
      description: 'Title and sheets of a spreadsheet.',
      input_schema: obj({ spreadsheet_id: str('Spreadsheet id', { minLength: 1 }) }, ['spreadsheet_id']),
      output_schema: obj({ spreadsheetId: str('Id'), properties: anyObject, sheets: { type: 'array', items: {} } }),
      http: { method: 'GET', path: '/spreadsheets/{{input.spreadsheet_id}}', query: { fields: 'spreadsheetId,properties,sheets.properties' } },
      retryable_statuses: [429, 500, 502, 503, 504],
    },
    {
      id: 'get_values',
      name: 'Read values',
      description: 'The values of a range (A1 notation).',
      input_schema: obj({ spreadsheet_id: str('Spreadsheet id', { minLength: 1 }), range: str('A1 range, e.g. Sheet1!A1:D10', { minLength: 1 }) }, [
        'spreadsheet_id',
        'range',
      ]),
      output_schema: obj({ range: str('Range'), values: { type: 'array', items: {} } }),
      http: { method: 'GET', path: '/spreadsheets/{{input.spreadsheet_id}}/values/{{input.range}}' },
      retryable_statuses: [429, 500, 502, 503, 504],
    },
    {
      id: 'append_values',
      name: 'Append rows',
      description: 'Appends rows after the last row of a range.',
      input_schema: obj(
        {
          spreadsheet_id: str('Spreadsheet id', { minLength: 1 }),
          range: str('A1 range', { minLength: 1 }),
          values: { type: 'array', items: { type: 'array', items: {} }, minItems: 1 },
        },
        ['spreadsheet_id', 'range', 'values'],
      ),
      output_schema: obj({ updates: anyObject }),
      http: {
        method: 'POST',
        path: '/spreadsheets/{{input.spreadsheet_id}}/values/{{input.range}}:append',
        query: { valueInputOption: 'USER_ENTERED' },
        body: { values: '{{input.values}}' },
      },
      retryable_statuses: [429, 500, 502, 503, 504],
    },
  ],
  test_operation: { operation: 'get_spreadsheet', input: { spreadsheet_id: '{{settings.spreadsheet_id}}' } },
};
