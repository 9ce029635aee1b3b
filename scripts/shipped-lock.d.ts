// Types of ./shipped-lock.js, for the tests that import it.
export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
  [field: string]: unknown;
}
export interface Lock {
  packages: Record<string, LockEntry>;
  [field: string]: unknown;
}
export interface DependencyFlags {
  dev: boolean;
  optional: boolean;
  devOptional: boolean;
  peer: boolean;
}
export function dependencyFlags(packages: Record<string, LockEntry>): Map<string, DependencyFlags>;
export function shippedLock(lock: Lock): { lock: Lock; leftOut: string[] };
