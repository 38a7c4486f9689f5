import type { ConnectorDefinition } from '@platform/messaging';
import { anyObject, BASE_URL_SETTINGS, DEFAULT_RETRYABLE, obj, str } from './shared.js';

/** Slack Web API: a bot token, or OAuth 2.0 (a Slack app's install flow). Slack answers 200 with `ok: false` on errors. */
export const SLACK_CONNECTOR: ConnectorDefinition = {
  id: 'slack',
  name: 'Slack',
  version: '1.0.0',
  description: 'Posts messages and reads channels of a Slack workspace through the Web API.',
  categories: ['communication'],
  icon: 'https://cdn.platform.local/icons/slack.svg',
  publisher: 'platform',
  auth: [
    { type: 'bearer', prefix: 'Bearer ' },
    {
      type: 'oauth2_code',
      authorization_url: 'https://slack.com/oauth/v2/authorize',
      token_url: 'https://slack.com/api/oauth.v2.access',
      scopes: ['chat:write', 'channels:read'],
    },
  ],
  base_url: 'https://slack.com/api',
  settings_schema: BASE_URL_SETTINGS,
  driver: 'http',
  operations: [
    {
      id: 'post_message',
      name: 'Post a message',
      description: 'Posts a message to a channel (or a thread).',
      input_schema: obj(
        {
          channel: str('Channel id or name', { minLength: 1 }),
          text: str('Message text (mrkdwn)', { minLength: 1 }),
          blocks: { type: 'array', items: {} },
          thread_ts: str('Reply in this thread'),
        },
        ['channel', 'text'],
      ),
      output_schema: obj({ ok: { type: 'boolean' }, channel: str('Channel id'), ts: str('Message timestamp') }),
      http: { method: 'POST', path: '/chat.postMessage', body: '{{input}}' },
      retryable_statuses: DEFAULT_RETRYABLE,
      success_field: 'ok',
      error_field: 'error',
    },
    {
      id: 'list_channels',
      name: 'List channels',
      description: 'Public channels of the workspace, a page at a time.',
      input_schema: obj({ limit: { type: 'integer', minimum: 1, maximum: 1000 }, cursor: str('next_cursor of the previous page') }),
      output_schema: obj({ ok: { type: 'boolean' }, channels: { type: 'array', items: {} }, response_metadata: anyObject }),
      http: { method: 'GET', path: '/conversations.list', query: { limit: '{{input.limit}}', cursor: '{{input.cursor}}' } },
      pagination: { type: 'cursor', cursor_param: 'cursor', next_cursor: 'response_metadata.next_cursor' },
      retryable_statuses: DEFAULT_RETRYABLE,
      success_field: 'ok',
      error_field: 'error',
    },
    {
      id: 'auth_test',
      name: 'Check the token',
      description: 'Who the token belongs to.',
      input_schema: obj({}),
      output_schema: obj({ ok: { type: 'boolean' }, team: str('Workspace'), user: str('User') }),
      http: { method: 'POST', path: '/auth.test' },
      retryable_statuses: DEFAULT_RETRYABLE,
      success_field: 'ok',
      error_field: 'error',
    },
  ],
  test_operation: { operation: 'auth_test', input: {} },
};

/** Microsoft Teams through Microsoft Graph (delegated OAuth, or an app's client credentials). */
export const TEAMS_CONNECTOR: ConnectorDefinition = {
  id: 'microsoft-teams',
  name: 'Microsoft Teams',
  version: '1.0.0',
  description: 'Sends channel messages and lists teams through Microsoft Graph.',
  categories: ['communication'],
  icon: 'https://cdn.platform.local/icons/teams.svg',
  publisher: 'platform',
  auth: [
    {
      type: 'oauth2_code',
      authorization_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
      token_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      scopes: ['offline_access', 'Team.ReadBasic.All', 'ChannelMessage.Send'],
    },
    {
      type: 'oauth2_client_credentials',
      token_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      scopes: ['https://graph.microsoft.com/.default'],
    },
    { type: 'bearer', prefix: 'Bearer ' },
  ],
  base_url: 'https://graph.microsoft.com/v1.0',
  settings_schema: BASE_URL_SETTINGS,
  driver: 'http',
  operations: [
    {
      id: 'send_channel_message',
      name: 'Send a channel message',
      description: 'Posts a message (HTML or text) to a channel of a team.',
      input_schema: obj(
        {
          team_id: str('Team id', { minLength: 1 }),
          channel_id: str('Channel id', { minLength: 1 }),
          content: str('Message', { minLength: 1 }),
          content_type: { enum: ['text', 'html'] },
        },
        ['team_id', 'channel_id', 'content'],
      ),
      output_schema: obj({ id: str('Message id') }),
      http: {
        method: 'POST',
        path: '/teams/{{input.team_id}}/channels/{{input.channel_id}}/messages',
        body: { body: { contentType: '{{input.content_type}}', content: '{{input.content}}' } },
      },
      retryable_statuses: DEFAULT_RETRYABLE,
    },
    {
      id: 'list_joined_teams',
      name: 'List joined teams',
      description: 'Teams the signed-in user is a member of.',
      input_schema: obj({}),
      output_schema: obj({ value: { type: 'array', items: {} } }),
      http: { method: 'GET', path: '/me/joinedTeams' },
      retryable_statuses: DEFAULT_RETRYABLE,
    },
  ],
  test_operation: { operation: 'list_joined_teams', input: {} },
};
