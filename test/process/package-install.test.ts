// The package as users install it: `npm pack`, the tarball served by a registry on 127.0.0.1 as
// registry.npmjs.org would serve it once published, then `npm install -g pds` from that registry
// into a fresh prefix. npm prints nothing but its summary, and the installed `pds` answers
// --version, starts the emulator, reads from it, and its sandbox refuses an xz archive clearly.
//
// Through a registry, not `npm install -g ./pds-0.1.0.tgz`: npm reads a dependency's
// npm-shrinkwrap.json only when the registry's metadata says the package has one
// (`_hasShrinkwrap`), and a tarball given by path has no such metadata, so that install resolves
// every dependency afresh, just-bash's optional node-liblzma with its install script included.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { dependencyFlags, type Lock, shippedLock } from '../../scripts/shipped-lock.js';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'pds-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const packageLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};

const FLAGS = ['dev', 'optional', 'devOptional', 'peer'] as const;

describe('the shipped lock (npm-shrinkwrap.json)', () => {
  it('flags each package of package-lock.json as npm itself did', () => {
    const computed = dependencyFlags(packageLock.packages);
    const differences = Object.entries(packageLock.packages)
      .filter(([location]) => location !== '')
      .flatMap(([location, entry]) => {
        const flags = computed.get(location);
        if (!flags) return [`${location}: not reached`];
        return FLAGS.filter((flag) => Boolean(entry[flag]) !== flags[flag]).map((flag) => `${location}: ${flag}`);
      });
    expect(differences).toEqual([]);
  });

  it('leaves out the optional dependencies with install scripts and what only they need', () => {
    const { lock, leftOut } = shippedLock(packageLock);
    const shipped = lock.packages;
    const scripted = Object.keys(packageLock.packages).filter(
      (location) => packageLock.packages[location]?.hasInstallScript && !packageLock.packages[location]?.dev,
    );
    expect(scripted.length).toBeGreaterThan(0);
    expect(leftOut).toEqual(expect.arrayContaining(scripted));
    // Nothing left behind that users install runs a script; every left-out package was optional.
    expect(
      Object.keys(shipped).filter((location) => shipped[location]?.hasInstallScript && !shipped[location]?.dev),
    ).toEqual([]);
    expect(leftOut.filter((location) => !packageLock.packages[location]?.optional)).toEqual([]);
    // Whatever is kept is reachable and has all it requires.
    expect(Object.keys(shipped).filter((location) => !dependencyFlags(shipped).has(location))).toEqual([]);
  });
});

/** A registry of one package, as registry.npmjs.org answers for a published one; it records each request. */
async function registryOf(tarball: Buffer): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const tarballPath = `/${manifest.name}/-/${manifest.name}-${manifest.version}.tgz`;
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const { port } = server.address() as AddressInfo;
    if (request.url === `/${manifest.name}`) {
      const version = {
        ...manifest,
        _hasShrinkwrap: true,
        dist: {
          tarball: `http://127.0.0.1:${port}${tarballPath}`,
          integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
          shasum: createHash('sha1').update(tarball).digest('hex'),
        },
      };
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          name: manifest.name,
          'dist-tags': { latest: manifest.version },
          versions: { [manifest.version]: version },
        }),
      );
    } else if (request.url === tarballPath) {
      response.end(tarball);
    } else {
      response.statusCode = 404;
      response.end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, requests, server };
}

async function packed(): Promise<Buffer> {
  // prepack's shrinkwrap, without its rebuild of dist/ under the other process tests' feet (npm
  // test has just built it).
  await run(process.execPath, ['scripts/shrinkwrap.js'], { cwd: root });
  try {
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root });
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    if (!info) throw new Error('npm pack printed no package');
    expect(info.files.map((file) => file.path)).toContain('npm-shrinkwrap.json');
    expect(info.files.map((file) => file.path)).toContain('dist/cli.cjs');
    return readFileSync(join(work, info.filename));
  } finally {
    await run(process.execPath, ['scripts/shrinkwrap.js', '--remove'], { cwd: root });
  }
}

describe('the package, installed as users install it', () => {
  it('installs from a registry without a warning, and the installed pds works', async () => {
    const registry = await registryOf(await packed());
    const prefix = join(work, 'prefix');
    let install: { stdout: string; stderr: string };
    try {
      install = await run(
        'npm',
        [
          'install',
          '--global',
          '--prefix',
          prefix,
          '--registry',
          registry.url,
          '--no-audit',
          '--no-fund',
          '--update-notifier=false',
          manifest.name,
        ],
        { cwd: work, timeout: 240_000 },
      );
    } finally {
      registry.server.close();
    }
    expect(install.stderr).toBe('');
    expect(install.stdout).toMatch(/^\nadded \d+ packages in [\d.]+m?s\n$/);
    // The dependencies came from the shrinkwrap and npm's cache. The registry was asked for pds and
    // its tarball (unless npm's cache had it); for pds's own dependencies, which npm looks up ahead
    // and goes on without when the shrinkwrap pins them; and for the tarballs of other platforms'
    // optional packages (npm checks os and cpu only in a tree it builds itself; it passes over the
    // registry's 404 for them). Never for a package the shrinkwrap leaves out.
    const { lock } = shippedLock(packageLock);
    const otherPlatforms = Object.entries(lock.packages)
      .filter(([, entry]) => entry.optional && (entry.os || entry.cpu))
      .map(([, entry]) => new URL(String(entry.resolved)).pathname);
    const expected = new Set([
      `/${manifest.name}`,
      `/${manifest.name}/-/${manifest.name}-${manifest.version}.tgz`,
      ...Object.keys(manifest.dependencies).map((name) => `/${name.replace('/', '%2f')}`),
      ...otherPlatforms,
    ]);
    expect(registry.requests[0]).toBe(`GET /${manifest.name}`);
    expect(registry.requests.filter((request) => !expected.has(request.replace(/^GET /, '')))).toEqual([]);

    const pds = join(prefix, 'bin', 'pds');
    const env = { ...process.env, PDS_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
    expect((await run(pds, ['--version'], { env })).stdout).toBe(`${manifest.version}\n`);

    const emulator = spawn(pds, ['emulator', 'start', '--port', '0', '--quiet'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stopped = new Promise<number | null>((resolve) => emulator.once('close', resolve));
    const killer = setTimeout(() => emulator.kill('SIGKILL'), 120_000);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        emulator.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        void stopped.then(() => reject(new Error(`the emulator ended: ${out}`)));
      });
      const token = 'demo-org-token';
      const signedIn = { ...env, PDS_API_URL: url, PDS_TOKEN: token };
      const answer = (await (
        await fetch(`${url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { data: { id: string }[] };
      const read = await run(pds, ['projects', 'ls', '--json'], { env: signedIn });
      expect((JSON.parse(read.stdout) as { id: string }[]).map((project) => project.id)).toEqual(
        answer.data.map((project) => project.id),
      );

      // Without node-liblzma the sandbox's tar refuses xz, saying why, and the sandbox goes on.
      const sandbox = await run(
        pds,
        ['sandbox', 'exec', '-p', DEMO_PROJECT_ID, 'tar -cJf /tmp/contracts.txz contracts', 'echo after'],
        { env: signedIn },
      ).then(
        () => ({ code: 0, stdout: '', stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(sandbox.code).toBe(2);
      expect(sandbox.stdout).toBe('after\n');
      expect(sandbox.stderr).toMatch(/^tar: error creating archive: xz compression requires node-liblzma\b.*\n$/);
      const gzip = await run(
        pds,
        ['sandbox', 'exec', '-p', DEMO_PROJECT_ID, 'tar -czf /tmp/c.tgz AGENTS.md && tar -tzf /tmp/c.tgz'],
        {
          env: signedIn,
        },
      );
      expect(gzip.stdout).toBe('AGENTS.md\n');
    } finally {
      emulator.kill('SIGTERM');
      expect(await stopped).toBe(0);
      clearTimeout(killer);
    }
  }, 300_000);
});
