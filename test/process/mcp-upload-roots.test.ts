// The files `pds mcp`'s upload may read, as a real MCP client sees it: under the working directory
// or --root, narrowed to the client's roots; no link, hidden file or swapped name leads outside.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { callTool, connectMcp, data, mcpEnv } from '../helpers/mcp.js';
import { runPds } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const SAMPLE_PDF = new URL('../fixtures/sample.pdf', import.meta.url).pathname;

describe('pds mcp: the files an upload may read', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'pds-mcp-roots-')));
  const root = join(base, 'root');
  const other = join(base, 'other');
  beforeAll(() => {
    for (const dir of [root, other, join(root, '.ssh'), join(root, 'sub')]) mkdirSync(dir, { recursive: true });
    for (const file of [
      'secret.pdf',
      'root/doc.pdf',
      'root/.env.pdf',
      'root/.ssh/id.pdf',
      'root/sub/ok.pdf',
      'other/x.pdf',
    ]) {
      copyFileSync(SAMPLE_PDF, join(base, file));
    }
    symlinkSync(join(base, 'secret.pdf'), join(root, 'link.pdf'));
    symlinkSync(base, join(root, 'up'));
    symlinkSync(join(root, 'doc.pdf'), join(root, 'same.pdf'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const uploads = () => emulator.requests.filter((r) => r.method === 'POST');
  /** The deployed service's flow: each upload is a mint and a complete, its bytes PUT to the storage host. */
  const SIGNED = ['/v1/statements/uploads', '/v1/statements/uploads/complete'];
  /** The name the emulator keeps for the upload a result reports. */
  const uploadedName = (text: string) =>
    emulator.state.uploads.find((u) => u.staging_id === data<{ staging_id: number }>(text).staging_id)?.file_name;

  it('reads only under the working directory by default: ../, a symlink out, an absolute path and hidden files are refused', async () => {
    const server = await connectMcp(emulator, ['--allow-writes'], { cwd: root });
    try {
      expect(server.stderr()).toContain(`uploads read files under ${root})`);
      const outside = `error: ../secret.pdf: outside the directories pds mcp may read files from\n  roots: ${root}`;
      expect(await callTool(server.client, 'upload_contract', { path: '../secret.pdf' })).toEqual({
        isError: true,
        text: outside,
      });
      expect((await callTool(server.client, 'upload_contract', { path: join(base, 'secret.pdf') })).text).toMatch(
        /: outside the directories/,
      );
      expect((await callTool(server.client, 'upload_statement', { path: 'link.pdf' })).text).toBe(
        `error: link.pdf: outside the directories pds mcp may read files from\n  roots: ${root}`,
      );
      expect((await callTool(server.client, 'upload_statement', { path: 'up/secret.pdf' })).text).toMatch(
        /^error: up\/secret.pdf: outside/,
      );
      expect((await callTool(server.client, 'upload_contract', { path: '.env.pdf' })).text).toBe(
        'error: .env.pdf: hidden files and directories (.env.pdf) are not read',
      );
      expect((await callTool(server.client, 'upload_contract', { path: join(root, '.ssh/id.pdf') })).text).toBe(
        `error: ${join(root, '.ssh/id.pdf')}: hidden files and directories (.ssh) are not read`,
      );
      expect((await callTool(server.client, 'upload_contract', { path: 'nope.pdf' })).text).toBe(
        'error: nope.pdf: no such file',
      );
      expect(uploads()).toEqual([]);

      // Inside the root, a symlink to a file inside it is read; the file keeps the name it was asked by.
      const names: (string | undefined)[] = [];
      for (const path of ['doc.pdf', 'same.pdf', join(root, 'sub/ok.pdf')]) {
        const result = await callTool(server.client, 'upload_statement', { path });
        expect(result.isError, `${path}: ${result.text}`).toBe(false);
        names.push(uploadedName(result.text));
      }
      expect(names).toEqual(['doc.pdf', 'same.pdf', 'ok.pdf']);
      expect(uploads().map((r) => r.path)).toEqual([...SIGNED, ...SIGNED, ...SIGNED]);
    } finally {
      await server.close();
    }
  });

  it('takes --root, repeated, instead of the working directory', async () => {
    const server = await connectMcp(emulator, ['--allow-writes', '--root', other, '--root', 'sub'], { cwd: root });
    try {
      expect((await callTool(server.client, 'upload_statement', { path: join(other, 'x.pdf') })).isError).toBe(false);
      expect((await callTool(server.client, 'upload_statement', { path: 'sub/ok.pdf' })).isError).toBe(false);
      expect((await callTool(server.client, 'upload_statement', { path: 'doc.pdf' })).text).toBe(
        `error: doc.pdf: outside the directories pds mcp may read files from\n  roots: ${other}, ${join(root, 'sub')}`,
      );
      expect(uploads().map((r) => r.path)).toEqual([...SIGNED, ...SIGNED]);
    } finally {
      await server.close();
    }
  });

  it("narrows to the client's roots when it announces them", async () => {
    const server = await connectMcp(emulator, ['--allow-writes'], {
      cwd: root,
      client: { capabilities: { roots: { listChanged: true } } },
      setup: (client) =>
        client.setRequestHandler(ListRootsRequestSchema, () => ({
          roots: [{ uri: pathToFileURL(join(root, 'sub')).href }],
        })),
    });
    try {
      expect((await callTool(server.client, 'upload_statement', { path: 'sub/ok.pdf' })).isError).toBe(false);
      expect((await callTool(server.client, 'upload_statement', { path: 'doc.pdf' })).text).toBe(
        `error: doc.pdf: outside the directories pds mcp may read files from\n  the client's roots: ${join(root, 'sub')}`,
      );
      expect(uploads().map((r) => r.path)).toEqual(SIGNED);
    } finally {
      await server.close();
    }
  });

  it('uploads the bytes of the file it checked, from the file it opened; a hard link to a file outside is refused', async () => {
    const inside = join(root, 'own.csv');
    writeFileSync(inside, 'period,amount\n2026Q1,17\n');
    linkSync(join(base, 'secret.pdf'), join(root, 'hard.pdf'));
    const server = await connectMcp(emulator, ['--allow-writes'], { cwd: root });
    try {
      const result = await callTool(server.client, 'upload_statement', { path: 'own.csv' });
      expect(result.isError, result.text).toBe(false);
      const stored = emulator.storage.stored(data<{ staging_id: number }>(result.text).staging_id);
      expect(readFileSync(stored?.path ?? '', 'utf8')).toBe('period,amount\n2026Q1,17\n');

      expect(await callTool(server.client, 'upload_contract', { path: 'hard.pdf' })).toEqual({
        isError: true,
        text:
          'error: hard.pdf: the file has 2 names (hard links); pds mcp reads only a file with one, whose one name is under its roots\n' +
          '  a hard link is the same file as its other names, which may be anywhere: copy the file into a root instead',
      });
      expect(uploads().map((r) => r.path)).toEqual(SIGNED);
    } finally {
      await server.close();
    }
  });

  it('never uploads a file outside the roots while the name is swapped between a file and a link to one outside', async () => {
    const outside = join(base, 'race-secret.csv');
    writeFileSync(outside, 'period,amount\nSECRET,9\n');
    const swapDir = join(root, '.swap');
    mkdirSync(swapDir, { recursive: true });
    // Swaps root/race.csv between a new regular file inside the root and a link to the file outside, every millisecond.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [race, dir, outside] = process.argv.slice(1);
         const pause = new Int32Array(new SharedArrayBuffer(4));
         for (let i = 0; ; i++) {
           const file = dir + '/f' + i, link = dir + '/l' + i;
           fs.writeFileSync(file, 'period,amount\\ninside,1\\n');
           fs.renameSync(file, race);
           Atomics.wait(pause, 0, 0, 1);
           fs.symlinkSync(outside, link);
           fs.renameSync(link, race);
           Atomics.wait(pause, 0, 0, 1);
         }`,
        join(root, 'race.csv'),
        swapDir,
        outside,
      ],
      { stdio: 'ignore' },
    );
    const server = await connectMcp(emulator, ['--allow-writes'], { cwd: root });
    try {
      const stored: string[] = [];
      const refusals = new Set<string>();
      for (let i = 0; i < 150; i++) {
        const result = await callTool(server.client, 'upload_statement', { path: 'race.csv' });
        if (result.isError) refusals.add(result.text.replace(/\n[\s\S]*/, ''));
        else
          stored.push(
            readFileSync(
              emulator.storage.stored(data<{ staging_id: number }>(result.text).staging_id)?.path ?? '',
              'utf8',
            ),
          );
      }
      expect(stored.filter((bytes) => bytes !== 'period,amount\ninside,1\n')).toEqual([]);
      for (const refusal of refusals) {
        expect(refusal).toMatch(
          /^error: race\.csv: (outside the directories pds mcp may read files from|became a symbolic link while pds checked it; not read|changed while pds checked it; not read|no such file)$/,
        );
      }
    } finally {
      swapper.kill();
      await server.close();
    }
  });

  it('refuses a --root that is not a directory, with exit 2', async () => {
    const result = await runPds(['mcp', '--root', join(base, 'missing')], { env: mcpEnv(emulator) });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --root ${join(base, 'missing')}: not a directory\n`,
    });
  });
});
