// The pieces of browser sign-in that need no server: PKCE, the token answer, what is kept of it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPkce, randomState } from '../../src/lib/auth/pkce.js';
import { credentialsFrom, TokenAnswer } from '../../src/lib/auth/tokens.js';
import { OAuthAnswerError } from '../../src/lib/auth/requests.js';

describe('PKCE', () => {
  it('makes a 43-character verifier and its S256 challenge, new every time', () => {
    const a = createPkce();
    const b = createPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).toBe(createHash('sha256').update(a.verifier).digest('base64url'));
    expect(a.verifier).not.toBe(b.verifier);
    expect(randomState()).not.toBe(randomState());
  });
});

describe('the token answer', () => {
  const base = { issuer: 'https://as', client_id: 'c', token_endpoint: 'https://as/token' };

  it('accepts a bearer token in any case, and refuses another type', () => {
    expect(TokenAnswer.safeParse({ access_token: 'a', token_type: 'bearer' }).success).toBe(true);
    expect(TokenAnswer.safeParse({ access_token: 'a', token_type: 'Bearer' }).success).toBe(true);
    const mac = TokenAnswer.safeParse({ access_token: 'a', token_type: 'mac' });
    expect(mac.success).toBe(false);
    expect(TokenAnswer.safeParse({ access_token: '', token_type: 'Bearer' }).success).toBe(false);
  });

  it('keeps the expiry as a date, and the old refresh token when the answer has none', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(
      credentialsFrom(
        { access_token: 'a2', token_type: 'Bearer', expires_in: 60 },
        { ...base, refresh_token: 'r1' },
        now,
      ),
    ).toEqual({
      ...base,
      access_token: 'a2',
      refresh_token: 'r1',
      expires_at: '2026-01-01T00:01:00.000Z',
    });
    expect(
      credentialsFrom(
        { access_token: 'a3', token_type: 'Bearer', refresh_token: 'r2' },
        { ...base, refresh_token: 'r1' },
        now,
      ),
    ).toEqual({
      ...base,
      access_token: 'a3',
      refresh_token: 'r2',
    });
  });
});

describe("an authorization server's error", () => {
  it('is shown with its control characters as escapes (safeText), a long description cut', () => {
    const error = new OAuthAnswerError(
      new URL('http://127.0.0.1:9/token?x=1'),
      400,
      'invalid\u001b[2Jgrant',
      `expired\n${'x'.repeat(400)}`,
    );
    expect(error.code).toBe('invalid\\x1b[2Jgrant');
    expect(error.message).toBe(
      `http://127.0.0.1:9/token answered 400: invalid\\x1b[2Jgrant (expired\\n${'x'.repeat(292)}…)`,
    );
  });
});
