// PKCE (RFC 7636) with S256, and the `state` of an authorization request: random values from
// node:crypto, base64url without padding.
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** 32 random bytes give a 43-character verifier, the shortest RFC 7636 allows, with 256 bits. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const randomState = (): string => randomBytes(24).toString('base64url');
