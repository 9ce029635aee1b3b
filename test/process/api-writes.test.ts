// Writes through the built CLI: `pds api` takes PUT and PATCH as gh api does, and the emulator
// answers a write as the service does (the record as it now is). Uses the bundle: `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';
import { example, startReplayServer, type ReplayServer } from '../helpers/replay-server.js';

const PROJECT: string = example('projects.get').data.id;

let replay: ReplayServer;
const env = () => signedInEnv(replay.url, { PDS_TOKEN: 'replay-token', PDS_PROJECT: PROJECT });
beforeAll(async () => {
  replay = await startReplayServer();
}, 30_000);
afterAll(async () => {
  await replay?.close();
});

describe('pds api takes PUT and PATCH, as gh api does', () => {
  it('-X PUT with -f sends a JSON body: the deployed service writes a statement with PUT', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const env = signedInEnv(emulator.url);
      const put = await runPds(
        ['api', '-X', 'PUT', 'statements/40002?projectId={project}', '-f', 'payee=Nova Records'],
        {
          env,
        },
      );
      expect(put.code, put.stderr).toBe(0);
      expect(JSON.parse(put.stdout).data).toMatchObject({ id: 40002, payee: 'Nova Records' });
      expect(emulator.requests.map((request) => [request.method, request.path])).toEqual([
        ['PUT', '/v1/statements/40002'],
      ]);
      const get = await runPds(['statements', 'get', '40002', '--json'], { env });
      expect(JSON.parse(get.stdout).payee).toBe('Nova Records');
    } finally {
      await emulator.close();
    }
  });

  it('-X PATCH with --input sends the file as the body, -f as the query', async () => {
    const sent = replay.requests.length;
    const patch = await runPds(
      ['api', '-X', 'patch', 'statements/72001', '-f', `projectId=${PROJECT}`, '--input', '-'],
      {
        env: env(),
        stdin: '{"payee":"Nova Records"}',
      },
    );
    // The replay has no PATCH route: what matters is what it received.
    expect(patch.code).toBe(5);
    const [request] = replay.requests.slice(sent);
    expect(request).toMatchObject({
      method: 'PATCH',
      path: '/v1/statements/72001',
      query: { projectId: PROJECT },
      body: '{"payee":"Nova Records"}',
    });
  });
});

describe('the emulator answers a write as the service does', () => {
  it('statements update answers the statement as it now is: the fields it left alone keep their values', async () => {
    const emulator = await testEmulator({ flavor: 'deployed' });
    try {
      const env = signedInEnv(emulator.url);
      const before = JSON.parse((await runPds(['statements', 'get', '40002', '--json'], { env })).stdout);
      expect(before.accounting_period).toMatch(/^\d{4}/);
      const update = await runPds(['statements', 'update', '40002', '--payee', 'X', '--json'], { env });
      expect(update.code, update.stderr).toBe(0);
      const answer = JSON.parse(update.stdout);
      const after = JSON.parse((await runPds(['statements', 'get', '40002', '--json'], { env })).stdout);
      expect(after.payee).toBe('X');
      expect(answer).toMatchObject({
        payee: 'X',
        accounting_period: before.accounting_period,
        currency_royalty: after.currency_royalty,
      });
      expect(after.accounting_period).toBe(before.accounting_period);
    } finally {
      await emulator.close();
    }
  });
});
