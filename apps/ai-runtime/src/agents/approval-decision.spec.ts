import { describe, expect, it } from '@jest/globals';
import type { AgentApprovalOutcomeItem } from '@platform/messaging';
import { decisionOf } from './approval-decision.js';

const outcome = (o: Partial<AgentApprovalOutcomeItem>): AgentApprovalOutcomeItem => ({
  taskId: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10',
  agentRunId: '01937b90-0000-7cc1-9f3e-5b1a2c3d4e5f',
  toolCallId: 'call_1',
  status: 'completed',
  decision: 'approve',
  data: {},
  completedBy: 'api_key:k1',
  completedAt: '2026-11-24T10:00:00.000Z',
  ...o,
});

describe('what an approval outcome means for the tool call', () => {
  it("approves with the model's arguments, or with the approver's corrected ones", () => {
    expect(decisionOf(outcome({}), { order: 'A-17' })).toEqual({ status: 'approved', args: { order: 'A-17' }, edited: false, comment: null });
    expect(decisionOf(outcome({ data: { arguments: { order: 'A-18' }, comment: ' ok ' } }), { order: 'A-17' })).toEqual({
      status: 'approved',
      args: { order: 'A-18' },
      edited: true,
      comment: 'ok',
    });
    // Arguments that are not an object are not a correction.
    expect(decisionOf(outcome({ data: { arguments: 'A-18' } }), { order: 'A-17' })).toMatchObject({ args: { order: 'A-17' }, edited: false });
  });

  it('tells the model who rejected the call and why, or that nobody decided in time', () => {
    expect(decisionOf(outcome({ decision: 'reject', data: { comment: 'Too late' } }), {})).toEqual({
      status: 'rejected',
      comment: 'Too late',
      refusal: { code: 'approval_rejected', message: 'api_key:k1 rejected this call; it was not made: "Too late"' },
    });
    expect(decisionOf(outcome({ status: 'expired', decision: null }), {})).toMatchObject({ status: 'expired', refusal: { code: 'approval_expired' } });
    expect(decisionOf(outcome({ status: 'expired', decision: 'reject' }), {})).toMatchObject({ status: 'expired' });
    expect(decisionOf(outcome({ status: 'cancelled', decision: null }), {})).toMatchObject({ status: 'cancelled', refusal: { code: 'approval_cancelled' } });
  });
});
