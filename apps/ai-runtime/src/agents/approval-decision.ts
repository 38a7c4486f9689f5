import type { AgentApprovalOutcomeItem } from '@platform/messaging';

export type ApprovalDecision =
  | { status: 'approved'; args: Record<string, unknown>; edited: boolean; comment: string | null }
  | { status: 'rejected' | 'expired' | 'cancelled'; comment: string | null; refusal: { code: string; message: string } };

/**
 * What the outcome of an approval task means for the tool call: approved with the arguments (the
 * approver's `data.arguments` when the form was used to correct them), or refused with the
 * message the model gets as the tool's answer: who rejected it and why, or that nobody decided.
 */
export function decisionOf(outcome: AgentApprovalOutcomeItem, original: Record<string, unknown>): ApprovalDecision {
  const data = outcome.data ?? {};
  const comment = typeof data.comment === 'string' && data.comment.trim() ? data.comment.trim() : null;
  const because = comment ? `: "${comment}"` : '';
  if (outcome.status === 'completed' && outcome.decision !== 'reject') {
    const edited = isObject(data.arguments) && JSON.stringify(data.arguments) !== JSON.stringify(original);
    return { status: 'approved', args: edited ? (data.arguments as Record<string, unknown>) : original, edited, comment };
  }
  if (outcome.status === 'completed')
    return {
      status: 'rejected',
      comment,
      refusal: { code: 'approval_rejected', message: `${outcome.completedBy ?? 'A person'} rejected this call; it was not made${because}` },
    };
  if (outcome.status === 'expired')
    return { status: 'expired', comment, refusal: { code: 'approval_expired', message: 'Nobody approved this call before its deadline; it was not made' } };
  return { status: 'cancelled', comment, refusal: { code: 'approval_cancelled', message: 'The approval of this call was cancelled; it was not made' } };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
