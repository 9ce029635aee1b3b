// Text from the service reaches a terminal only made safe: jq's errors that quote the data, the
// issuer browser sign-in names, and project names offered by completion.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, freshConfigDir, runCli } from '../helpers/cli.js';
import { captureBrowser, decide, deliver } from '../helpers/oauth.js';

const emulator = sharedEmulator({ flavor: 'current' });

describe('service text on a terminal', () => {
  it('a jq error that quotes the data shows its control characters as escapes', async () => {
    // A contract the emulator holds: the error is jq's, after a real answer.
    const contract = emulator.state.data[DEMO_PROJECT]?.contracts[0]?.id;
    if (contract === undefined) throw new Error('the emulator has no contract');
    const result = await runCli(
      emulator,
      ['contracts', 'get', String(contract), '--jq', '"a\\u001b]0;title\\u0007b\\nc" | error'],
      { tty: true },
    );
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'error: --jq: a\\x1b]0;title\\x07b\\nc\n' });
  });

  it('completion leaves out a project name with control characters, and keeps the others', async () => {
    const project = emulator.state.projects.find((p) => p.id === DEMO_PROJECT);
    if (!project) throw new Error('no demo project');
    const name = project.name;
    const other = emulator.state.projects.find((p) => p.id === SECOND_PROJECT_ID);
    if (!other) throw new Error('no second project');
    project.name = 'Evil\u001b]0;pwned\u0007\nforged';
    try {
      const result = await runCli(emulator, ['__complete', '--', 'use', ''], {
        env: { PDS_CONFIG_DIR: freshConfigDir() },
      });
      expect(result.stdout).toBe(`${DEMO_PROJECT}\n${SECOND_PROJECT_ID}\n${other.name}\n`);
    } finally {
      project.name = name;
    }
  });

  it('browser sign-in names an issuer with control characters safely', async () => {
    const metadata = (await (await fetch(`${emulator.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    let issuer = '';
    let url = '';
    // An API whose authorization server (the emulator's endpoints) names itself with an escape sequence.
    const front: Server = createServer((req, res) => {
      const json = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/.well-known/oauth-protected-resource')
        return json({ resource: url, authorization_servers: [issuer] });
      if (req.url?.startsWith('/.well-known/oauth-authorization-server')) return json({ ...metadata, issuer });
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      issuer = `${url}/as\u001b]0;pwned\u0007`;
      const browser = captureBrowser();
      const login = runCli(url, ['auth', 'login', '--web'], {
        token: null,
        project: null,
        env: { BROWSER: browser.command },
      });
      await deliver(await decide(await browser.url(), 'deny'));
      const result = await login;
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(
        `Opened the browser to sign in at ${url}/as\\x1b]0;pwned\\x07. If it did not open, visit:\n`,
      );
      expect(result.stderr).not.toContain('\u001b');
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});
