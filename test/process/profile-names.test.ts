// Profile names are data: __proto__, constructor and prototype are names like any, through the built
// pds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT, freshConfigDir } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds } from '../helpers/process.js';

describe('profile names are data: __proto__, constructor and prototype are names like any', () => {
  const emulator = sharedEmulator({ flavor: 'current' });
  it.each([['__proto__'], ['constructor'], ['prototype']])(
    '--profile %s: logged in, kept, read back, listed',
    async (name) => {
      const env = { PDS_CONFIG_DIR: freshConfigDir(), PDS_API_URL: emulator.url };
      const login = await runPds(['--profile', name, 'auth', 'login', '--with-token'], {
        env,
        stdin: 'demo-org-token\n',
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain(`(profile ${name})`);
      const set = await runPds(['--profile', name, 'config', 'set', 'project', DEMO_PROJECT], { env });
      expect(set.code, set.stderr).toBe(0);

      const stored = JSON.parse(readFileSync(join(env.PDS_CONFIG_DIR, 'config.json'), 'utf8')) as {
        profiles: Record<string, unknown>;
      };
      expect(Object.hasOwn(stored.profiles, name)).toBe(true);
      expect(Object.getOwnPropertyDescriptor(stored.profiles, name)?.value).toMatchObject({
        token: 'demo-org-token',
        project: DEMO_PROJECT,
      });

      const get = await runPds(['--profile', name, 'config', 'get', 'project'], { env });
      expect(get).toMatchObject({ code: 0, stdout: `${DEMO_PROJECT}\n` });
      const status = await runPds(['--profile', name, 'projects', 'ls', '--json'], { env });
      expect(status.code, status.stderr).toBe(0);
      const list = await runPds(['auth', 'list', '--json'], { env });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain(`"${name}"`);
      // Another name is still unknown, not one of Object.prototype's.
      const other = await runPds(['--profile', name === 'constructor' ? 'toString' : 'constructor', 'config', 'list'], {
        env,
      });
      expect(other.code).toBe(2);
      expect(other.stderr).toContain('unknown profile');
    },
  );
});
