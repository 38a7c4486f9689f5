import { describe, expect, it } from '@jest/globals';
import { errorBody } from './error-body.js';

describe('errorBody', () => {
  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [409, 'Conflict'],
    [413, 'Payload Too Large'],
    [415, 'Unsupported Media Type'],
    [429, 'Too Many Requests'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [504, 'Gateway Timeout'],
  ])('names status %i %s', (status, phrase) => {
    expect(errorBody(status, 'msg').error).toBe(phrase);
  });

  it("falls back to 'Error' for a status without a reason phrase", () => {
    expect(errorBody(599, 'msg').error).toBe('Error');
  });

  it('carries message, status and request id', () => {
    expect(errorBody(404, 'Run not found', 'req-1')).toStrictEqual({
      error: 'Not Found',
      code: 'not_found',
      message: 'Run not found',
      status: 404,
      request_id: 'req-1',
    });
  });

  it('omits request_id when there is none', () => {
    expect(Object.keys(errorBody(400, 'bad'))).toEqual(['error', 'code', 'message', 'status']);
  });

  it('omits details when they are missing or empty', () => {
    expect(errorBody(400, 'bad', 'req-1')).not.toHaveProperty('details');
    expect(errorBody(400, 'bad', 'req-1', [])).not.toHaveProperty('details');
  });

  it('includes details when there are some', () => {
    const details = [{ field: 'limit', message: 'must not be less than 1' }];
    expect(errorBody(400, 'bad', 'req-1', details).details).toEqual(details);
  });
});
