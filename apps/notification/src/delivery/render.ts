import type { ChannelKind } from './channel-kinds.js';
import { cardEscape, escapeHtml, markdownBlocks, markdownTo, markdownToHtml, slackEscape } from './markdown.js';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}
/** Slack: `text` is the notification fallback, `blocks` what is shown. */
export interface SlackContent {
  text: string;
  blocks: Record<string, unknown>[];
}
export interface TeamsContent {
  card: Record<string, unknown>;
}
export type Content = EmailContent | SlackContent | TeamsContent;

const SLACK_SECTION_LIMIT = 3000;
const SLACK_TEXT_LIMIT = 4000;

/** Plain text as Slack's `text`: escaped, cut to `limit` characters without splitting an escape. */
function slackText(plain: string, limit: number): string {
  const text = slackEscape(plain);
  return text.length <= limit ? text : text.slice(0, limit).replace(/&[a-z]{0,3}$/, '');
}

/** The body (Markdown, templates already applied) as each kind shows it; done once, when the notification is accepted. */
export function render(kind: ChannelKind, subject: string | null, markdown: string): Content {
  switch (kind) {
    case 'email': {
      const body = markdownToHtml(markdown);
      const title = subject ?? 'Notification';
      return {
        subject: title,
        text: markdownTo(markdown, 'text'),
        html: `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`,
      };
    }
    case 'slack': {
      const mrkdwn = markdownTo(markdown, 'mrkdwn');
      const blocks: Record<string, unknown>[] = [];
      if (subject) blocks.push({ type: 'header', text: { type: 'plain_text', text: subject.slice(0, 150), emoji: true } });
      for (let i = 0; i < mrkdwn.length; i += SLACK_SECTION_LIMIT) {
        blocks.push({ type: 'section', text: { type: 'mrkdwn', text: mrkdwn.slice(i, i + SLACK_SECTION_LIMIT) } });
      }
      // Slack reads `text` as mrkdwn too (it is what notifications and some clients show): escaped
      // like the blocks, or a variable could mention `<!channel>` or hide a link.
      const plain = subject ? `${subject}\n${markdownTo(markdown, 'text')}` : markdownTo(markdown, 'text');
      return { text: slackText(plain, SLACK_TEXT_LIMIT), blocks: blocks.slice(0, 50) };
    }
    case 'teams': {
      const body: Record<string, unknown>[] = [];
      // The subject is plain text: escaped, so a variable in it cannot format, link or mention.
      if (subject) body.push({ type: 'TextBlock', text: cardEscape(subject), weight: 'Bolder', size: 'Medium', wrap: true });
      for (const b of markdownBlocks(markdown)) {
        if (b.kind === 'heading') body.push({ type: 'TextBlock', text: b.text, weight: 'Bolder', wrap: true });
        else if (b.kind === 'code') body.push({ type: 'TextBlock', text: b.text, fontType: 'Monospace', wrap: true });
        else body.push({ type: 'TextBlock', text: b.text, wrap: true });
      }
      return {
        card: {
          type: 'message',
          attachments: [
            {
              contentType: 'application/vnd.microsoft.card.adaptive',
              contentUrl: null,
              content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body },
            },
          ],
        },
      };
    }
  }
}
