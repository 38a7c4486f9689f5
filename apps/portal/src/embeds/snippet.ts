import escapeHtml from 'escape-html';
import type { EmbedKind } from './embeds.repository.js';

/** Where each kind's view is served (public routes of this service, through the gateway). */
export const VIEW_PATHS: Record<EmbedKind, string> = { form: 'forms', runs: 'runs', dashboard: 'dashboards' };

/** The view's address: the base the caller reached the platform at (the gateway's forwarded host). */
export function viewUrl(base: string, kind: EmbedKind, targetId: string, token: string): string {
  return `${base}/portal/public/${VIEW_PATHS[kind]}/${targetId}?token=${encodeURIComponent(token)}`;
}

/** A plain iframe: nothing to install, and the browser enforces frame-ancestors on it. */
export function iframeSnippet(url: string, title: string): string {
  return `<iframe src="${escapeHtml(url)}" title="${escapeHtml(title)}" width="100%" height="640" style="border:0" loading="lazy"></iframe>`;
}
