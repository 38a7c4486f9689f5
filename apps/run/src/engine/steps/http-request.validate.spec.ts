import { describe, expect, it } from '@jest/globals';
import { HttpRequestStep } from './http-request.step.js';
import type { StepDefinition } from './step-executor.js';

// Save-time checks of http.request; its runs against a local server are in http-request.step.spec.ts.
const step = (input: Record<string, unknown>): StepDefinition => ({ id: 'call', type: 'http.request', input });

describe('HttpRequestStep.validate', () => {
  const executor = new HttpRequestStep();
  const paths = (input: Record<string, unknown> | undefined) => executor.validate({ id: 's', type: 'http.request', input }).map((p) => p.path);

  it('accepts a complete literal input and expressions wherever a value goes', () => {
    expect(
      paths({
        method: 'post',
        url: 'https://api.example.com/v1/items?x=1',
        headers: { Authorization: '{% "Bearer " & secrets.token %}', 'X-Trace': 'abc' },
        query: { limit: 10, active: true, q: 'a b' },
        body: { name: 'x' },
        timeout_ms: 120000,
        response_type: 'json',
        fail_on_status: false,
      }),
    ).toEqual([]);
    expect(paths({ url: '{% input.url %}', method: '{% input.method %}', headers: '{% input.headers %}', timeout_ms: '{% input.t %}' })).toEqual([]);
  });

  it('reports every problem with its path', () => {
    const problems = executor.validate(
      step({
        method: 'TRACE',
        url: 'ftp://example.com/file',
        headers: { 'Bad Header': 'x', 'X-Ok': 5, Host: 'evil.test', 'X-Crlf': 'a\r\nb' },
        query: { a: { nested: true }, b: Number.NaN },
        timeout_ms: 120001,
        response_type: 'xml',
        fail_on_status: 'yes',
        header: {},
      }),
    );
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        'input.method',
        'input.url',
        'input.headers.Bad Header',
        'input.headers.X-Ok',
        'input.headers.Host',
        'input.headers.X-Crlf',
        'input.query.a',
        'input.query.b',
        'input.timeout_ms',
        'input.response_type',
        'input.fail_on_status',
        'input.header',
      ].sort(),
    );
    expect(problems.find((p) => p.path === 'input.url')?.message).toBe('must use http or https');
  });

  it('requires the url', () => {
    expect(paths(undefined)).toEqual(['input.url']);
    expect(paths({})).toEqual(['input.url']);
    expect(paths({ url: '' })).toEqual(['input.url']);
  });

  it('refuses URLs it cannot request', () => {
    const message = (url: unknown) => executor.validate(step({ url }))[0]?.message;
    expect(message('not a url')).toBe('is not a valid absolute URL');
    expect(message('/relative/path')).toBe('is not a valid absolute URL');
    expect(message('file:///etc/passwd')).toBe('must use http or https');
    expect(message('javascript:alert(1)')).toBe('must use http or https');
    expect(message('https://user:pass@example.com/')).toMatch(/must not contain credentials/);
    expect(message('https://user@example.com/')).toMatch(/must not contain credentials/);
    expect(message(42)).toBe('must be a string');
    expect(message('https://example.com/')).toBeUndefined();
  });

  it('accepts every method in any case and refuses others', () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'get']) expect(paths({ url: 'https://example.com', method })).toEqual([]);
    for (const method of ['OPTIONS', 'CONNECT', '', 7]) expect(paths({ url: 'https://example.com', method })).toEqual(['input.method']);
  });

  it('refuses an input that is not an object', () => {
    expect(executor.validate({ id: 's', type: 'http.request', input: 'x' as unknown as Record<string, unknown> })).toEqual([
      { path: 'input', message: 'must be an object' },
    ]);
  });
});
