import type { ConnectorDefinition } from '@platform/messaging';
import { BASE_URL_SETTINGS, DEFAULT_RETRYABLE, obj, str } from '../connectors/builtins/shared.js';

/** Connectors published in the marketplace (not built in: a tenant installs the ones it wants). */
export const PUBLISHED_CONNECTORS: readonly ConnectorDefinition[] = [
  {
    id: 'pagerduty',
    name: 'PagerDuty',
    version: '1.2.0',
    description: 'Opens and lists incidents through the PagerDuty REST API.',
    categories: ['monitoring'],
    icon: 'https://cdn.platform.local/icons/pagerduty.svg',
    publisher: 'Platform Labs',
    auth: [{ type: 'api_key', in: 'header', name: 'Authorization', prefix: 'Token token=' }],
    base_url: 'https://api.pagerduty.com',
    settings_schema: BASE_URL_SETTINGS,
    driver: 'http',
    operations: [
      {
        id: 'list_incidents',
        name: 'List incidents',
        description: 'Open incidents, newest first.',
        input_schema: obj({ statuses: { type: 'array', items: { enum: ['triggered', 'acknowledged', 'resolved'] } } }),
        output_schema: obj({ incidents: { type: 'array', items: {} } }),
        http: {
          method: 'GET',
          path: '/incidents',
          query: { 'statuses[]': '{{input.statuses}}' },
          headers: { accept: 'application/vnd.pagerduty+json;version=2' },
        },
        retryable_statuses: DEFAULT_RETRYABLE,
      },
      {
        id: 'create_incident',
        name: 'Create an incident',
        description: 'Opens an incident on a service.',
        input_schema: obj(
          { title: str('Title', { minLength: 1 }), service_id: str('Service id', { minLength: 1 }), from: str('E-mail of the requester', { minLength: 3 }) },
          ['title', 'service_id', 'from'],
        ),
        output_schema: obj({ incident: { type: 'object' } }),
        http: {
          method: 'POST',
          path: '/incidents',
          headers: { from: '{{input.from}}', accept: 'application/vnd.pagerduty+json;version=2' },
          body: { incident: { type: 'incident', title: '{{input.title}}', service: { id: '{{input.service_id}}', type: 'service_reference' } } },
        },
        retryable_statuses: DEFAULT_RETRYABLE,
      },
    ],
    test_operation: { operation: 'list_incidents', input: {} },
  },
  {
    id: 'sendgrid',
    name: 'SendGrid',
    version: '1.0.3',
    description: 'Sends e-mail through the SendGrid v3 API.',
    categories: ['communication'],
    icon: 'https://cdn.platform.local/icons/sendgrid.svg',
    publisher: 'Community',
    auth: [{ type: 'bearer', prefix: 'Bearer ' }],
    base_url: 'https://api.sendgrid.com/v3',
    settings_schema: BASE_URL_SETTINGS,
    driver: 'http',
    operations: [
      {
        id: 'send_mail',
        name: 'Send an e-mail',
        description: 'Sends one message to one recipient.',
        input_schema: obj({ to: str('Recipient', { minLength: 3 }), from: str('Sender', { minLength: 3 }), subject: str('Subject'), text: str('Body') }, [
          'to',
          'from',
          'subject',
          'text',
        ]),
        output_schema: {},
        http: {
          method: 'POST',
          path: '/mail/send',
          body: {
            personalizations: [{ to: [{ email: '{{input.to}}' }] }],
            from: { email: '{{input.from}}' },
            subject: '{{input.subject}}',
            content: [{ type: 'text/plain', value: '{{input.text}}' }],
          },
        },
        retryable_statuses: DEFAULT_RETRYABLE,
      },
      {
        id: 'get_profile',
        name: 'Get the profile',
        description: 'The account the key belongs to.',
        input_schema: obj({}),
        output_schema: obj({ first_name: str('First name') }),
        http: { method: 'GET', path: '/user/profile' },
        retryable_statuses: DEFAULT_RETRYABLE,
      },
    ],
    test_operation: { operation: 'get_profile', input: {} },
  },
];
