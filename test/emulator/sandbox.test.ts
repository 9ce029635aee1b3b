// The emulator's sandbox (SPEC 4.11): sessions, the workspace files, and exec confined in just-bash.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod/mini';
import {
  ContractProcesses,
  ContractUpload,
  ErrorBody,
  ExecResults,
  SandboxDisconnected,
  SandboxFile,
  SandboxSession,
  envelope,
} from '../helpers/spec-forms.js';
import { DEMO_PROJECT_ID, OTHER_PROJECT_ID, SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { call, testEmulator } from '../helpers/emulator.js';

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));
const base = (projectId = DEMO_PROJECT_ID) => `/v1/projects/${projectId}/sandbox`;

let emulator: Emulator;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'current', processingMs: 10 });
  expect((await call(emulator, `${base()}/connect`, { method: 'POST' })).status).toBe(200);
});
afterAll(() => emulator.close());

async function dataOf(response: Response): Promise<unknown> {
  expect(response.status).toBe(200);
  return envelope(z.unknown()).parse(await response.json()).data;
}

async function errorOf(response: Response) {
  return ErrorBody.parse(await response.json()).error;
}

async function files(path: string, target = emulator) {
  return call(target, `${base()}/files?path=${encodeURIComponent(path)}`);
}

async function exec(commands: unknown, target = emulator, projectId = DEMO_PROJECT_ID) {
  return call(target, `${base(projectId)}/exec`, {
    method: 'POST',
    body: JSON.stringify({ commands }),
    headers: { 'content-type': 'application/json' },
  });
}

async function run(commands: string[], target = emulator) {
  return ExecResults.parse(await dataOf(await exec(commands, target)));
}

describe('sandbox sessions', () => {
  it('connects, reconnects to the same session, and disconnects', async () => {
    const first = SandboxSession.parse(
      await dataOf(await call(emulator, `${base(SECOND_PROJECT_ID)}/connect`, { method: 'POST' })),
    );
    expect(first.status).toBe('connected');
    expect(first.sandboxId).toMatch(/^sbx_/);
    const again = SandboxSession.parse(
      await dataOf(await call(emulator, `${base(SECOND_PROJECT_ID)}/connect`, { method: 'POST' })),
    );
    expect(again.sandboxId).toBe(first.sandboxId);
    expect((await exec(['pwd'], emulator, SECOND_PROJECT_ID)).status).toBe(200);

    const gone = await dataOf(await call(emulator, `${base(SECOND_PROJECT_ID)}/disconnect`, { method: 'DELETE' }));
    expect(SandboxDisconnected.parse(gone)).toEqual({ status: 'disconnected' });
    const after = await exec(['pwd'], emulator, SECOND_PROJECT_ID);
    expect(after.status).toBe(400);
    expect((await errorOf(after)).message).toMatch(/^sandbox not connected/);
  });

  it('answers 400 "sandbox not connected" for files and exec before connect', async () => {
    const fresh = await testEmulator({ flavor: 'current' });
    try {
      const read = await files('/', fresh);
      expect(read.status).toBe(400);
      expect((await errorOf(read)).message).toMatch(/^sandbox not connected/);
      const ran = await exec(['ls'], fresh);
      expect(ran.status).toBe(400);
      expect((await errorOf(ran)).message).toMatch(/^sandbox not connected/);
    } finally {
      await fresh.close();
    }
  });

  it('keeps sessions per token and checks the project scope', async () => {
    // The project token has its own session: the org token's connect does not count for it.
    const response = await call(emulator, `${base()}/files?path=/`, { token: 'demo-project-token' });
    expect(response.status).toBe(400);
    const forbidden = await call(emulator, `${base(SECOND_PROJECT_ID)}/connect`, {
      method: 'POST',
      token: 'demo-project-token',
    });
    expect(forbidden.status).toBe(403);
    const foreign = await call(emulator, `${base(OTHER_PROJECT_ID)}/connect`, { method: 'POST' });
    expect(foreign.status).toBe(404);
    const invalid = await call(emulator, '/v1/projects/not-a-uuid/sandbox/connect', { method: 'POST' });
    expect(invalid.status).toBe(400);
  });
});

describe('sandbox files', () => {
  it('lists the workspace root, with directories ending in /', async () => {
    const root = SandboxFile.parse(await dataOf(await files('/')));
    expect(root).toEqual({
      type: 'directory',
      entries: [
        'AGENTS.md',
        'artists/',
        'compositions/',
        'contracts/',
        'entities/',
        'recordings/',
        'relations/',
        'statements/',
        'stats.yaml',
        'writers/',
      ],
    });
    for (const same of ['', '.', '/..', '../../'])
      expect(SandboxFile.parse(await dataOf(await files(same)))).toEqual(root);
  });

  it('reads stats.yaml and AGENTS.md, relative or absolute', async () => {
    const stats = SandboxFile.parse(await dataOf(await files('/stats.yaml')));
    expect(stats.type).toBe('file');
    const parsed = parseYaml(stats.type === 'file' ? stats.content : '') as { counts: Record<string, number> };
    const data = emulator.state.data[DEMO_PROJECT_ID]!;
    expect(parsed.counts).toMatchObject({
      contracts: data.contracts.length,
      statements: data.statements.length,
      recordings: data.recordings.length,
      artists: data.artists.filter((a) => a.merged_into === undefined).length,
    });
    expect(SandboxFile.parse(await dataOf(await files('stats.yaml')))).toEqual(stats);
    const agents = SandboxFile.parse(await dataOf(await files('AGENTS.md')));
    expect(agents.type === 'file' && agents.content).toMatch(/^# Project workspace: /);
  });

  it('lists a resource directory and reads a record file', async () => {
    const contracts = SandboxFile.parse(await dataOf(await files('contracts/')));
    expect(contracts.type).toBe('directory');
    const entries = contracts.type === 'directory' ? contracts.entries : [];
    expect(entries.length).toBe(emulator.state.data[DEMO_PROJECT_ID]!.contracts.length);
    expect(entries.every((e) => /^contract_.+\/$/.test(e))).toBe(true);
    const contractDir = SandboxFile.parse(await dataOf(await files(`/contracts/${entries[0]}`)));
    expect(contractDir.type === 'directory' && contractDir.entries).toEqual(['extracted/', 'uploaded.yaml']);
    const uploaded = SandboxFile.parse(await dataOf(await files(`/contracts/${entries[0]}uploaded.yaml`)));
    const contract = parseYaml(uploaded.type === 'file' ? uploaded.content : '') as { id: string; parties: unknown[] };
    expect(entries[0]).toBe(`contract_${contract.id}/`);
    expect(Array.isArray(contract.parties)).toBe(true);
  });

  it('answers 400 without path and 404 for a missing path, naming it', async () => {
    const missingParam = await call(emulator, `${base()}/files`);
    expect(missingParam.status).toBe(400);
    expect((await errorOf(missingParam)).path).toEqual(['path is required']);
    const missing = await files('/contracts/contract_nope/uploaded.yaml');
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toBe('path not found: /contracts/contract_nope/uploaded.yaml');
    // `..` stops at the workspace root: nothing of the host is reachable.
    expect((await files('../../etc/passwd')).status).toBe(404);
  });
});

describe('sandbox exec', () => {
  it('runs commands in order at the workspace root, one result per command', async () => {
    const results = await run(['pwd', 'ls', 'cat stats.yaml']);
    expect(results.map((r) => r.command)).toEqual(['pwd', 'ls', 'cat stats.yaml']);
    expect(results[0]).toEqual({ command: 'pwd', stdout: '/\n', stderr: '', exitCode: 0 });
    expect(results[1]!.stdout.split('\n')).toEqual(expect.arrayContaining(['AGENTS.md', 'contracts', 'stats.yaml']));
    const stats = SandboxFile.parse(await dataOf(await files('/stats.yaml')));
    expect(results[2]!.stdout).toBe(stats.type === 'file' ? stats.content : '');
  });

  it('shares the file system between the commands of one request only', async () => {
    const results = await run(['echo hi > /tmp/x', 'cat /tmp/x']);
    expect(results.map((r) => [r.stdout, r.exitCode])).toEqual([
      ['', 0],
      ['hi\n', 0],
    ]);
    const [later] = await run(['cat /tmp/x']);
    expect(later!.exitCode).not.toBe(0);
  });

  it('behaves like a complete tree when directories are removed, moved or copied', async () => {
    const data = emulator.state.data[DEMO_PROJECT_ID]!;
    const roots = (records: { merged_into?: string }[]) =>
      String(records.filter((r) => r.merged_into === undefined).length);
    const results = await run([
      'rm -r contracts',
      'ls contracts',
      'mv artists /tmp/a',
      'ls /tmp/a | wc -l',
      'ls artists',
      'cp -r writers /tmp/w',
      'ls /tmp/w | wc -l',
      'find entities -name metadata.yaml | wc -l',
      'ls statements | wc -l',
    ]);
    expect(results.map((r) => r.exitCode)).toEqual([0, 2, 0, 0, 2, 0, 0, 0, 0]);
    expect(results.map((r) => r.stdout.trim()).filter((_, i) => [3, 6, 7, 8].includes(i))).toEqual([
      roots(data.artists),
      roots(data.writers),
      roots(data.entities),
      String(data.statements.length),
    ]);
  });

  it('passes exit codes through and keeps stdout and stderr apart', async () => {
    const results = await run(['exit 3', 'false', 'true', 'echo out; echo err >&2']);
    expect(results.map((r) => r.exitCode)).toEqual([3, 1, 0, 0]);
    expect(results[3]).toMatchObject({ stdout: 'out\n', stderr: 'err\n' });
  });

  it('refuses a missing, empty or non-string commands list and other content types', async () => {
    for (const [body, message] of [
      [{}, 'commands is required: an array of bash commands'],
      [{ commands: [] }, 'commands must not be empty'],
      [{ commands: 'ls' }, 'commands must be an array of strings'],
      [{ commands: ['ls', 3] }, 'commands must be an array of strings'],
    ] as const) {
      const response = await call(emulator, `${base()}/exec`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).commands).toEqual([message]);
    }
    const text = await call(emulator, `${base()}/exec`, {
      method: 'POST',
      body: 'ls',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
    expect((await errorOf(text)).message).toBe('Content-Type must be application/json');
  });

  it('sees what uploads became', async () => {
    const form = new FormData();
    form.append('extractions', JSON.stringify(['extract-royalties']));
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'Sandbox Deal.pdf');
    const upload = ContractUpload.parse(
      await dataOf(await call(emulator, `/v1/contracts?projectId=${DEMO_PROJECT_ID}`, { method: 'POST', body: form })),
    );
    let contractId: number | null = null;
    for (let i = 0; i < 200 && contractId === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const processes = ContractProcesses.parse(
        await dataOf(await call(emulator, `/v1/contracts/${upload.staging_id}/processes?projectId=${DEMO_PROJECT_ID}`)),
      );
      if (processes.extraction_done) contractId = processes.contract_id;
    }
    expect(contractId).not.toBeNull();
    const [uploaded, royalties] = await run([
      `yq '.name' contracts/contract_${contractId}/uploaded.yaml`,
      `yq '.[0].rate' contracts/contract_${contractId}/extracted/royalties.yaml`,
    ]);
    expect(uploaded!.stdout).toBe('Sandbox Deal\n');
    expect(royalties!.stdout).toBe('0.18\n');
  });
});

describe('sandbox confinement', () => {
  it('shows nothing of the host file system', async () => {
    const [passwd, escaped] = await run(['cat /etc/passwd', 'cat ../../../../etc/passwd; ls /home']);
    for (const result of [passwd, escaped]) {
      expect(result!.exitCode).not.toBe(0);
      expect(result!.stdout).not.toContain('root:');
    }
  });

  it('has no network', async () => {
    const [curl] = await run(['curl -s http://127.0.0.1:1']);
    expect(curl!.exitCode).not.toBe(0);
    expect(curl!.stdout).toBe('');
  });

  it('ends a runaway loop within the time limit, and the server keeps answering', { timeout: 40_000 }, async () => {
    const limited = await testEmulator({ flavor: 'current', sandboxTimeoutMs: 1500 });
    try {
      await call(limited, `${base()}/connect`, { method: 'POST' });
      const started = Date.now();
      // Stopped by just-bash's command limit or by the time limit, whichever comes first.
      const [loop] = await run(['while true; do :; done'], limited);
      // Far under what an unstopped loop takes (forever), and above what a loaded machine needs to
      // start a worker and load just-bash before the 1.5 s start counting (seconds, under load).
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(loop!.exitCode).not.toBe(0);
      expect((await call(limited, '/v1/projects')).status).toBe(200);

      // A command that outlasts the request's time limit is stopped; the ones after it never run.
      const again = Date.now();
      const [before, slow, skipped] = await run(['echo before', 'sleep 60', 'echo after'], limited);
      expect(Date.now() - again).toBeLessThan(12_000);
      expect(before).toMatchObject({ stdout: 'before\n', exitCode: 0 });
      expect(slow).toMatchObject({ exitCode: 124, stderr: expect.stringContaining('deadline') });
      expect(skipped).toEqual({
        command: 'echo after',
        stdout: '',
        stderr: 'sandbox: not run: timed out after 1500 ms\n',
        exitCode: 124,
      });
      expect((await call(limited, '/v1/projects')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('terminates the shell at the hard limit and reports 124 for what did not finish', async () => {
    // 20 ms is far less than a worker needs to load just-bash: the hard limit ends this request.
    const limited = await testEmulator({ flavor: 'current', sandboxTimeoutMs: 20 });
    try {
      await call(limited, `${base()}/connect`, { method: 'POST' });
      const results = await run(['echo one', 'echo two'], limited);
      expect(results).toEqual([
        { command: 'echo one', stdout: '', stderr: 'sandbox: timed out after 20 ms\n', exitCode: 124 },
        { command: 'echo two', stdout: '', stderr: 'sandbox: not run: timed out after 20 ms\n', exitCode: 124 },
      ]);
      expect((await call(limited, '/v1/projects')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
