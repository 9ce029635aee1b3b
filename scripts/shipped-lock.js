// The lock file pds ships (npm-shrinkwrap.json), made from package-lock.json. npm installs a
// package's shrinkwrap as it stands: the packages it lists, with the flags it gives them, and no
// others (npm builds no dependency tree below a shrinkwrapped package unless asked for a complete
// one), so what the shrinkwrap leaves out is neither fetched nor installed, online or offline.
//
// Left out: optional dependencies that run an install script (node-liblzma and @mongodb-js/zstd,
// which just-bash loads for xz and zstd archives in its tar), and whatever only they need. Their
// scripts compile or download native code, and npm names every such script a global install runs
// without the user's approval. pds does not need them: without them the sandbox's tar refuses xz
// and zstd archives with a message and exit code 2.

/** Location of a lock entry (`node_modules/a/node_modules/b`) -> the location its dependency `name` resolves to. */
function resolveFrom(packages, from, name) {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/**
 * An entry's dependencies as { name, optional, peer, dev }, the way npm reads them: a name listed
 * twice takes its kind from the later list (peer, then dependencies, optional, dev).
 */
function edgesOf(entry, isRoot) {
  const edges = new Map();
  const add = (deps, kind) => {
    for (const name of Object.keys(deps ?? {})) edges.set(name, { name, ...kind });
  };
  const peerMeta = entry.peerDependenciesMeta ?? {};
  for (const name of Object.keys(entry.peerDependencies ?? {})) {
    edges.set(name, { name, peer: true, optional: Boolean(peerMeta[name]?.optional) });
  }
  add(entry.dependencies, {});
  add(entry.optionalDependencies, { optional: true });
  if (isRoot) add(entry.devDependencies, { dev: true });
  return [...edges.values()];
}

const FLAGS = ['dev', 'optional', 'devOptional', 'peer'];

/**
 * The flags npm gives each package it can reach from the root, computed as npm does: every flag
 * starts set and is cleared by a path that does not need it (a dev flag by a path through no
 * devDependency, optional by one through no optional dependency, devOptional by one through
 * neither, peer by one through no peer dependency). Packages it cannot reach are absent.
 */
export function dependencyFlags(packages) {
  const flags = new Map([['', { dev: false, optional: false, devOptional: false, peer: false }]]);
  const queue = [''];
  while (queue.length > 0) {
    const from = queue.pop();
    const source = flags.get(from);
    for (const edge of edgesOf(packages[from], from === '')) {
      const to = resolveFrom(packages, from, edge.name);
      if (!to) continue;
      let target = flags.get(to);
      const reached = !target;
      if (!target) {
        target = { dev: true, optional: true, devOptional: true, peer: true };
        flags.set(to, target);
      }
      const cleared = {
        dev: !source.dev && !edge.dev,
        optional: !source.optional && !edge.optional,
        devOptional: !source.devOptional && !source.dev && !source.optional && !edge.dev && !edge.optional,
        peer: !source.peer && !edge.peer,
      };
      let changed = reached;
      for (const flag of FLAGS) {
        if (cleared[flag] && target[flag]) {
          target[flag] = false;
          changed = true;
        }
      }
      if (changed) queue.push(to);
    }
  }
  // devOptional marks a package both trees need; one in either alone keeps that tree's flag only.
  for (const [location, flag] of flags) {
    if (location && flag.devOptional && (flag.dev || flag.optional)) flag.devOptional = false;
  }
  return flags;
}

/**
 * Where the public registry serves an entry's tarball, when the lock does not say (npm leaves it
 * out under omit-lockfile-registry-resolved). With it npm takes the tarball from its cache by
 * integrity, or from the user's registry (npm rewrites registry.npmjs.org to the configured one),
 * and asks no registry for the package's metadata.
 */
function registryResolved(location, entry) {
  if (!location || entry.resolved || entry.link || entry.inBundle || !entry.version) return {};
  const name = entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const file = `${name.slice(name.lastIndexOf('/') + 1)}-${entry.version}.tgz`;
  return { resolved: `https://registry.npmjs.org/${name}/-/${file}` };
}

/** package-lock.json's content -> { lock: the shrinkwrap's content, leftOut: the locations left out }. */
export function shippedLock(lock) {
  const scripted = Object.entries(lock.packages).filter(
    ([location, entry]) => location && entry.hasInstallScript && !entry.dev,
  );
  const required = scripted.filter(([, entry]) => !entry.optional);
  if (required.length > 0) {
    throw new Error(
      `a dependency users install runs an install script, which npm would name: ${required.map(([location]) => location).join(', ')}`,
    );
  }
  const kept = { ...lock.packages };
  for (const [location] of scripted) delete kept[location];

  const flags = dependencyFlags(kept);
  const packages = {};
  for (const [location, entry] of Object.entries(kept)) {
    const flag = flags.get(location);
    if (!flag) continue;
    const written = { ...entry, ...registryResolved(location, entry) };
    for (const name of FLAGS) {
      if (location && flag[name]) written[name] = true;
      else delete written[name];
    }
    packages[location] = written;
  }
  const leftOut = Object.keys(lock.packages).filter((location) => !(location in packages));
  return { lock: { ...lock, packages }, leftOut };
}
