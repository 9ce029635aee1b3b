// An npm registry on 127.0.0.1 serving the packages the checkout's lock file installs for users (its
// entries not marked dev), packed from node_modules, so that installing pds's tarball needs neither
// the network nor whatever npm's cache happens to hold. Each package is a packument (its
// package.json with `dist`) and a gzipped tar of its folder (every file but nested node_modules: an
// installed package holds only what it published). The lock's optional packages for other
// platforms are not in node_modules: their packuments carry `os` and `cpu`, so npm passes them by.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

interface LockEntry {
  name?: string;
  version: string;
  dev?: boolean;
  os?: string[];
  cpu?: string[];
}

export interface LocalRegistry {
  /** `http://127.0.0.1:port/` */
  url: string;
  /** The request paths it answered, in order (decoded). */
  served: string[];
  close(): Promise<void>;
}

/** The files of a package folder, relative to it, nested node_modules left out, sorted. */
function packageFiles(dir: string, under = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...packageFiles(dir, path));
    } else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** One ustar header: a path over 100 bytes is split at a slash into prefix and name. */
function tarHeader(path: string, size: number, mode: number): Buffer {
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    const slashes = [...path.matchAll(/\//g)].map((match) => match.index);
    const at = slashes.find((index) => Buffer.byteLength(path.slice(index + 1)) <= 100);
    if (at === undefined || at > 155) throw new Error(`path too long for a tar header: ${path}`);
    prefix = path.slice(0, at);
    name = path.slice(at + 1);
  }
  const header = Buffer.alloc(512);
  header.write(name, 0, 100);
  header.write(octal(mode, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(0, 12), 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\u000000', 257);
  header.write(prefix, 345, 155);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** The folder as npm publishes it: a gzipped tar with every file under `package/`. */
export function packFolder(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const file of packageFiles(dir)) {
    const body = readFileSync(join(dir, file));
    const executable = (statSync(join(dir, file)).mode & 0o111) !== 0;
    parts.push(tarHeader(`package/${file}`, body.length, executable ? 0o755 : 0o644), body);
    parts.push(Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

function packuments(root: string, base: string) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const documents = new Map<
    string,
    { name: string; 'dist-tags': { latest: string }; versions: Record<string, unknown> }
  >();
  const tarballs = new Map<string, Buffer>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location || entry.dev) continue;
    const name = entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const dir = join(root, location);
    let manifest: Record<string, unknown> = { name, version: entry.version, os: entry.os, cpu: entry.cpu };
    const file = `${name.replace('/', '-')}-${entry.version}.tgz`;
    let dist: Record<string, string> = { tarball: `${base}tarballs/${file}` };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      const tarball = tarballs.get(file) ?? packFolder(dir);
      tarballs.set(file, tarball);
      dist = {
        ...dist,
        shasum: createHash('sha1').update(tarball).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      };
    } catch (error) {
      // Only another platform's optional package may be missing from node_modules.
      if (!entry.os && !entry.cpu) throw new Error(`${relative(root, dir)} is in the lock but not installed`);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const document = documents.get(name) ?? { name, 'dist-tags': { latest: entry.version }, versions: {} };
    document.versions[entry.version] = { ...manifest, dist };
    documents.set(name, document);
  }
  // The newest version is latest (npm picks by range; latest only matters for a bare name).
  for (const document of documents.values()) {
    const versions = Object.keys(document.versions).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    document['dist-tags'].latest = versions.at(-1) ?? document['dist-tags'].latest;
  }
  return { documents, tarballs };
}

/** Starts the registry on 127.0.0.1 (port 0) with the packages of the checkout at `root`. */
export async function startLocalRegistry(root: string): Promise<LocalRegistry> {
  const served: string[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const { documents, tarballs } = packuments(root, url);
  server.on('request', (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', url).pathname).slice(1);
    served.push(path);
    const tarball = path.startsWith('tarballs/') ? tarballs.get(path.slice('tarballs/'.length)) : undefined;
    const document = documents.get(path);
    if (tarball) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length });
      res.end(tarball);
    } else if (document) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(document));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'not found' }));
    }
  });
  return {
    url,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
