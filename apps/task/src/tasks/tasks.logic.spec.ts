import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { MasterKeyRing } from '@platform/common';
import { completerOf, completionRule } from './completion-rule.js';
import { expiryAction } from './expiry.job.js';
import { FormValidator } from './form-validator.js';
import { LinkSigner, type LinkClaims } from './link-token.js';

const USER = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01';
const TEAM = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02';
const CUSTOMER = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f03';

describe('who may complete a task', () => {
  const user = { kind: 'user' as const, subject: USER, scopeId: null };
  it('lets tenant keys complete anything, users their own, their team’s or unassigned tasks', () => {
    expect(completionRule({ kind: 'tenant_key', subject: 'k', scopeId: null }, { assignee_type: 'user', assignee_id: TEAM })).toEqual({ allowed: true });
    expect(completionRule(user, { assignee_type: 'user', assignee_id: USER })).toEqual({ allowed: true });
    expect(completionRule(user, { assignee_type: 'user', assignee_id: TEAM })).toEqual({ allowed: false });
    expect(completionRule(user, { assignee_type: 'team', assignee_id: TEAM })).toEqual({ teamCheck: TEAM });
    expect(completionRule(user, { assignee_type: null, assignee_id: null })).toEqual({ allowed: true });
    expect(completionRule(user, { assignee_type: 'customer', assignee_id: CUSTOMER })).toEqual({ allowed: false });
  });

  it('lets a customer key complete only its customer’s tasks', () => {
    const key = { kind: 'customer_key' as const, subject: 'k', scopeId: CUSTOMER };
    expect(completionRule(key, { assignee_type: 'customer', assignee_id: CUSTOMER })).toEqual({ allowed: true });
    expect(completionRule(key, { assignee_type: 'customer', assignee_id: TEAM })).toEqual({ allowed: false });
    expect(completionRule(key, { assignee_type: 'user', assignee_id: USER })).toEqual({ allowed: false });
    expect(completerOf({ kind: 'user', subject: USER })).toBe(USER);
    expect(completerOf({ kind: 'tenant_key', subject: 'key-1' })).toBe('api_key:key-1');
  });
});

describe('deadline policies', () => {
  it('fails, rejects, or escalates once and then rejects', () => {
    expect(expiryAction({ on_expiry: 'fail', escalated: false })).toEqual({ kind: 'fail' });
    expect(expiryAction({ on_expiry: 'reject', escalated: false })).toEqual({ kind: 'reject' });
    expect(expiryAction({ on_expiry: null, escalated: false })).toEqual({ kind: 'reject' });
    const escalate = { escalate_to: { team_id: TEAM }, extend_seconds: 60 };
    expect(expiryAction({ on_expiry: escalate, escalated: false })).toEqual({ kind: 'escalate', to: { type: 'team', id: TEAM }, extendSeconds: 60 });
    expect(expiryAction({ on_expiry: escalate, escalated: true })).toEqual({ kind: 'reject' });
  });
});

describe('form data validation', () => {
  const forms = new FormValidator();
  const form = {
    type: 'object',
    required: ['amount'],
    additionalProperties: false,
    properties: {
      amount: { type: 'number', minimum: 0, 'ui:widget': 'updown' },
      email: { type: 'string', format: 'email' },
      lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } },
    },
  };

  it('accepts valid data and allows UI hints in the schema', () => {
    expect(forms.check(form, { amount: 3, email: 'a@b.test', lines: [{ qty: 1 }] })).toEqual({ ok: true });
  });

  it('names every field at fault', () => {
    const result = forms.check(form, { email: 'nope', lines: [{ qty: 1.5 }], extra: 1 });
    expect(result.ok).toBe(false);
    const fields = 'details' in result ? result.details.map((d) => d.field).sort() : [];
    expect(fields).toEqual(['data.amount', 'data.email', 'data.extra', 'data.lines[0].qty']);
  });

  it('reports a schema that cannot be compiled', () => {
    expect(forms.check({ type: 'no-such-type' }, {})).toMatchObject({ ok: false, invalidSchema: expect.any(String) });
  });
});

describe('signed task links', () => {
  const signer = new LinkSigner(randomBytes(32));
  const claims: LinkClaims = { t: USER, e: TEAM, s: null, k: CUSTOMER, l: USER, d: ['approve'], x: 2_000_000_000 };

  it('verifies its own tokens', () => {
    expect(signer.verify(signer.sign(claims))).toEqual(claims);
  });

  it('refuses tampered, truncated and foreign tokens', () => {
    const token = signer.sign(claims);
    const [body, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, d: ['approve', 'reject'] })).toString('base64url');
    expect(signer.verify(`${forged}.${mac}`)).toBeUndefined();
    expect(signer.verify(`${body}.${mac.slice(1)}`)).toBeUndefined();
    expect(signer.verify(body)).toBeUndefined();
    expect(signer.verify('')).toBeUndefined();
    expect(new LinkSigner(randomBytes(32)).verify(token)).toBeUndefined();
  });

  it('keeps verifying links signed before a master key rotation while the old key is in the ring', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = new LinkSigner(oldKey).sign(claims);
    const rotating = new LinkSigner(new MasterKeyRing([newKey, oldKey]));
    expect(rotating.verify(before)).toEqual(claims);
    const after = rotating.sign(claims);
    expect(new LinkSigner(newKey).verify(after)).toEqual(claims);
    expect(new LinkSigner(oldKey).verify(after)).toBeUndefined();
  });
});
