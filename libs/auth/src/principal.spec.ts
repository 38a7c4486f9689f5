import { describe, expect, it } from '@jest/globals';
import { hasScopes } from './principal.js';

describe('hasScopes', () => {
  it("grants every scope to a principal holding '*'", () => {
    expect(hasScopes({ scopes: ['*'] }, ['runs:write', 'admin'])).toBe(true);
    expect(hasScopes({ scopes: ['runs:read', '*'] }, ['anything'])).toBe(true);
  });

  it('passes when every required scope is held', () => {
    expect(hasScopes({ scopes: ['runs:read', 'runs:write', 'tasks:read'] }, ['runs:read', 'runs:write'])).toBe(true);
  });

  it('fails when any required scope is missing', () => {
    expect(hasScopes({ scopes: ['runs:read'] }, ['runs:read', 'runs:write'])).toBe(false);
    expect(hasScopes({ scopes: [] }, ['runs:read'])).toBe(false);
  });

  it('matches scopes exactly, not by prefix or case', () => {
    expect(hasScopes({ scopes: ['runs'] }, ['runs:read'])).toBe(false);
    expect(hasScopes({ scopes: ['RUNS:READ'] }, ['runs:read'])).toBe(false);
  });

  it('passes when nothing is required', () => {
    expect(hasScopes({ scopes: [] }, [])).toBe(true);
    expect(hasScopes({ scopes: ['runs:read'] }, [])).toBe(true);
  });
});
