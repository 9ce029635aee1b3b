import { describe, expect, it } from 'vitest';
import {
  AuthError,
  ExitCode,
  ForbiddenError,
  InterruptedError,
  NotFoundError,
  PdsError,
  ProcessingFailedError,
  RateLimitError,
  ServiceError,
  UsageError,
  errorFromResponse,
} from '../../src/lib/errors.js';

const FALLBACK = 'GET /v1/artists failed with HTTP 400';

describe('errorFromResponse', () => {
  it('maps each status to its error class and exit code', () => {
    const cases: [number, new (...args: never[]) => PdsError, number][] = [
      [400, UsageError, 2],
      [422, UsageError, 2],
      [401, AuthError, 3],
      [403, ForbiddenError, 4],
      [404, NotFoundError, 5],
      [409, UsageError, 2],
      [429, RateLimitError, 6],
      [500, ServiceError, 1],
      [503, ServiceError, 1],
    ];
    for (const [status, type, exitCode] of cases) {
      const error = errorFromResponse(status, { error: { message: 'm' } }, FALLBACK);
      expect(error).toBeInstanceOf(type);
      expect(error.exitCode).toBe(exitCode);
      expect(error.status).toBe(status);
      expect(error.message).toBe('m');
    }
  });

  it('turns field-level details into one line per field under the message', () => {
    const error = errorFromResponse(
      400,
      {
        error: {
          message: 'invalid query',
          perPage: ['perPage must be an integer from 1 to 100'],
          page: ['must be ≥ 1', 'must be a number'],
        },
      },
      FALLBACK,
    );
    expect(error.message).toBe('invalid query');
    expect(error.details).toEqual([
      'perPage: perPage must be an integer from 1 to 100',
      'page: must be ≥ 1; must be a number',
    ]);
  });

  it('puts the details into the message when there is no message', () => {
    const error = errorFromResponse(
      400,
      { error: { projectId: ['projectId must be a valid UUID'], q: 'too long' } },
      FALLBACK,
    );
    expect(error.message).toBe(`${FALLBACK}: projectId: projectId must be a valid UUID, q: too long`);
    expect(error.details).toEqual([]);
  });

  it('accepts a bare string error', () => {
    expect(errorFromResponse(404, { error: 'no such artist' }, FALLBACK).message).toBe('no such artist');
  });

  it('falls back on the method, path and status for a body it cannot read', () => {
    for (const body of [undefined, null, 'html', { message: 'not the envelope' }, { error: 42 }, { error: {} }]) {
      const error = errorFromResponse(502, body, FALLBACK);
      expect(error.message).toBe(FALLBACK);
      expect(error.details).toEqual([]);
    }
  });

  it('adds the way out to a 401', () => {
    const error = errorFromResponse(401, { error: { message: 'invalid or expired token' } }, FALLBACK);
    expect(error.details).toEqual(['run `pds auth login` or set PDS_TOKEN']);
  });
});

describe('the error classes', () => {
  it("carry the exit codes of DESIGN.md (8 is its Money section's 'the answer is not whole')", () => {
    expect(ExitCode).toEqual({
      ok: 0,
      failure: 1,
      usage: 2,
      unauthenticated: 3,
      forbidden: 4,
      notFound: 5,
      rateLimited: 6,
      processingFailed: 7,
      incomplete: 8,
      interrupted: 130,
    });
    expect(new PdsError('x').exitCode).toBe(1);
    expect(new ProcessingFailedError('x').exitCode).toBe(7);
    expect(new InterruptedError().exitCode).toBe(130);
  });

  it('keep details, status and cause, and name themselves', () => {
    const cause = new Error('socket hang up');
    const error = new ServiceError('cannot reach', { details: ['hint'], status: 503, cause });
    expect(error).toBeInstanceOf(PdsError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ServiceError');
    expect(error.details).toEqual(['hint']);
    expect(error.status).toBe(503);
    expect(error.cause).toBe(cause);
    expect(new UsageError('u').status).toBeUndefined();
  });
});
