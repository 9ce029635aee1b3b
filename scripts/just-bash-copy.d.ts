// Types of ./just-bash-copy.js, for the tests that import it.
export interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
export const LEFT_OUT: Record<string, string>;
export function requiredPackages(source: string): string[];
export function dependencyDifferences(source: string, justBashManifest: Manifest, pdsManifest: Manifest): string[];
export function copyJustBash(dir: string): void;
export function bundlePath(): string;
