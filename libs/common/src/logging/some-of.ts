/** The first few of a list, for a log line that stays readable with a batch of them: `a, b and 3 more`. */
export function someOf(items: string[], shown = 10): string {
  return items.length > shown ? `${items.slice(0, shown).join(', ')} and ${items.length - shown} more` : items.join(', ');
}
