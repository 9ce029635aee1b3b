// `pds auth login --web` end to end: the built pds as a child process, the emulator as the
// authorization server, and a real headless Chromium (see findChromium) as the browser. pds
// "opens" the URL through BROWSER, a script that hands it to the test; Playwright then loads the
// consent page and clicks.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { sharedEmulator } from '../helpers/emulator.js';
import { freshConfigDir } from '../helpers/cli.js';
import { findChromium, skipWhenMissing } from '../helpers/machine.js';
import { captureBrowser, readProfiles } from '../helpers/oauth.js';
import { startPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const found = await findChromium();
skipWhenMissing('browser sign-in tests', found.missing);
let browser: Browser | undefined;
beforeAll(async () => {
  if (!found.path) return;
  browser = await chromium.launch({
    executablePath: found.path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(() => browser?.close());

async function signIn(button: 'Approve' | 'Deny') {
  const dir = freshConfigDir();
  const capture = captureBrowser();
  const pds = startPds(['auth', 'login', '--web'], {
    env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, BROWSER: capture.command, PDS_TOKEN: undefined },
    killAfterMs: 30_000,
  });
  if (!browser) throw new Error('no browser was launched');
  const page = await browser.newPage();
  try {
    await page.goto((await capture.url()).href);
    expect(await page.title()).toBe('Authorize pds (command-line client)');
    expect(await page.textContent('#client-name')).toBe('pds (command-line client)');
    expect(await page.textContent('#organization')).toBe('Demo Music Group');
    expect(await page.textContent('#reach')).toContain('Northern Lights Catalog, Harbor Sessions');
    await page.getByRole('button', { name: button }).click();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    const landing = { heading: await page.textContent('h1'), text: await page.textContent('p') };
    return { dir, landing, exit: await pds.exited };
  } finally {
    await page.close();
  }
}

describe('pds auth login --web with a real browser', () => {
  it('Approve: pds ends signed in, the credentials stored with mode 0600', async () => {
    const { dir, landing, exit } = await signIn('Approve');
    expect(landing).toEqual({
      heading: 'Signed in',
      text: `pds is signed in to ${emulator.url} as organization (2 projects). You can close this tab.`,
    });
    expect(exit.code).toBe(0);
    // Nothing it started (the loopback server, the browser command) keeps it alive.
    expect(exit.afterLastOutputMs).toBeLessThan(3_000);
    expect(exit.stderr).toContain(
      `Logged in to ${emulator.url} as organization (2 projects) through the browser (profile default)\n`,
    );
    const { oauth } = readProfiles(dir).default as { oauth: Record<string, string> };
    expect(oauth.issuer).toBe(emulator.url);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    // The sign-in works for the next command, a separate process.
    const next = startPds(['projects', 'ls', '-q'], {
      env: { PDS_CONFIG_DIR: dir, PDS_API_URL: emulator.url, PDS_TOKEN: undefined },
    });
    const listed = await next.exited;
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('Deny: pds exits 3 and stores no credential', async () => {
    const { dir, landing, exit } = await signIn('Deny');
    expect(landing).toEqual({
      heading: 'Sign-in failed',
      text: 'sign-in was denied in the browser. Return to the terminal.',
    });
    expect(exit.code).toBe(3);
    expect(exit.stderr).toContain(
      'error: sign-in was denied in the browser\n  nothing was saved; run `pds auth login --web` again\n',
    );
    // Not even the client registered for it: a failed sign-in leaves the config as it was.
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});
