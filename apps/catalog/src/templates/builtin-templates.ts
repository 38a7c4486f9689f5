/** A workflow template: a workflow definition plus what a catalog page shows about it. */
export interface WorkflowTemplate {
  id: string;
  name: string;
  description: string;
  categories: string[];
  /** Connectors its connector steps use (each step asks for `customer_connection: <connector>` until instantiated with a connection). */
  connectors: string[];
  version: string;
  workflow: { description: string; input_schema?: Record<string, unknown>; steps: Record<string, unknown>[] };
}

/**
 * The platform's templates. Connector steps name `customer_connection`: instantiated as they are,
 * one workflow serves every customer with that customer's own connection; instantiating with
 * `connections` pins tenant connections instead.
 */
export const BUILT_IN_TEMPLATES: readonly WorkflowTemplate[] = [
  {
    id: 'github-issue-to-slack',
    name: 'Open a GitHub issue and announce it in Slack',
    description: 'Creates an issue from the run input, then posts its link to a Slack channel.',
    categories: ['developer-tools', 'communication'],
    connectors: ['github', 'slack'],
    version: '1.0.0',
    workflow: {
      description: 'From the template github-issue-to-slack',
      input_schema: {
        type: 'object',
        required: ['owner', 'repo', 'title', 'channel'],
        properties: { owner: { type: 'string' }, repo: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' }, channel: { type: 'string' } },
      },
      steps: [
        {
          id: 'issue',
          type: 'connector',
          input: {
            customer_connection: 'github',
            operation: 'create_issue',
            params: { owner: '{% input.owner %}', repo: '{% input.repo %}', title: '{% input.title %}', body: '{% input.body %}' },
          },
        },
        {
          id: 'announce',
          type: 'connector',
          input: {
            customer_connection: 'slack',
            operation: 'post_message',
            params: { channel: '{% input.channel %}', text: '{% "New issue: " & steps.issue.output.data.html_url %}' },
          },
        },
      ],
    },
  },
  {
    id: 'stripe-customer-welcome',
    name: 'Create a Stripe customer and welcome them by e-mail',
    description: 'Creates the customer in Stripe, then sends a welcome e-mail through SMTP.',
    categories: ['payments', 'communication'],
    connectors: ['stripe', 'smtp'],
    version: '1.0.0',
    workflow: {
      description: 'From the template stripe-customer-welcome',
      input_schema: { type: 'object', required: ['email', 'name'], properties: { email: { type: 'string' }, name: { type: 'string' } } },
      steps: [
        {
          id: 'customer',
          type: 'connector',
          input: { customer_connection: 'stripe', operation: 'create_customer', params: { email: '{% input.email %}', name: '{% input.name %}' } },
        },
        {
          id: 'welcome',
          type: 'connector',
          input: {
            customer_connection: 'smtp',
            operation: 'send_email',
            params: { to: '{% input.email %}', subject: 'Welcome', text: '{% "Hello " & input.name & ", your account is ready." %}' },
          },
        },
      ],
    },
  },
  {
    id: 'slack-message',
    name: 'Post a Slack message',
    description: 'Posts the run input text to a Slack channel: the smallest connector workflow.',
    categories: ['communication'],
    connectors: ['slack'],
    version: '1.0.0',
    workflow: {
      description: 'From the template slack-message',
      input_schema: { type: 'object', required: ['channel', 'text'], properties: { channel: { type: 'string' }, text: { type: 'string' } } },
      steps: [
        {
          id: 'post',
          type: 'connector',
          input: { customer_connection: 'slack', operation: 'post_message', params: { channel: '{% input.channel %}', text: '{% input.text %}' } },
        },
      ],
    },
  },
];
