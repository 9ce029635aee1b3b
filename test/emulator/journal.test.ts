// `--data`: a snapshot plus an append-only journal. A change costs what it writes, is durable
// before it is answered, a failed write answers 500 and keeps nothing, and the journal is folded
// into the snapshot now and then and at a clean stop.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import { ErrorBody } from '../helpers/spec-forms.js';
import { call, testEmulator } from '../helpers/emulator.js';

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pds-journal-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function upload(target: Emulator, name: string): Promise<Response> {
  return call(target, `/v1/statements?projectId=${DEMO_PROJECT_ID}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ file: PDF.toString('base64'), fileName: name }),
  });
}

async function stagingId(response: Response): Promise<number> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { staging_id: number } }).data.staging_id;
}

describe('the journal of --data', () => {
  it('appends a small line per change and leaves the snapshot alone', async () => {
    const dataFile = join(dir, 'append.json');
    const emulator = await testEmulator({ flavor: 'current', dataFile, scale: 10 });
    try {
      const snapshot = statSync(dataFile);
      expect(snapshot.size).toBeGreaterThan(1024 * 1024);
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await stagingId(await upload(emulator, `s${i}.pdf`)));
      const journal = readFileSync(`${dataFile}.journal`, 'utf8').trim().split('\n');
      const uploads = journal
        .map((line) => JSON.parse(line) as { upload?: { staging_id: number } })
        .flatMap((c) => (c.upload ? [c.upload.staging_id] : []));
      // Each upload, and again as processing advanced it (the default step is a second).
      expect([...new Set(uploads)]).toEqual(ids);
      expect(statSync(`${dataFile}.journal`).size).toBeLessThan(10 * 2048);
      // The 1 MB snapshot was not rewritten for any of them.
      expect(statSync(dataFile).mtimeMs).toBe(snapshot.mtimeMs);
    } finally {
      await emulator.close();
    }
    // A clean stop folds the journal into the snapshot.
    expect(readFileSync(`${dataFile}.journal`, 'utf8')).toBe('');
    const again = await testEmulator({ flavor: 'current', dataFile });
    try {
      expect(again.state.uploads.map((u) => u.file_name)).toEqual(['s0.pdf', 's1.pdf', 's2.pdf', 's3.pdf', 's4.pdf']);
    } finally {
      await again.close();
    }
  });

  it('replays the journal over the snapshot after a stop without compaction, dropping a torn last line', async () => {
    const dataFile = join(dir, 'replay.json');
    const emulator = await testEmulator({ flavor: 'current', dataFile, processingMs: 10 });
    const ids = [await stagingId(await upload(emulator, 'a.pdf')), await stagingId(await upload(emulator, 'b.pdf'))];
    await new Promise((resolve) => setTimeout(resolve, 80));
    // Processing results are journaled too, once a request observes them.
    expect((await call(emulator, `/v1/statements/${ids[0]}/processes?projectId=${DEMO_PROJECT_ID}`)).status).toBe(200);
    const statementIds = emulator.state.uploads.map((u) => u.result_id);
    const journal = readFileSync(`${dataFile}.journal`, 'utf8');
    // What a crash leaves: the snapshot as seeded, the journal, and half a line being written.
    const copy = join(dir, 'replay-copy.json');
    copyFileSync(dataFile, copy);
    writeFileSync(`${copy}.journal`, `${journal}{"upload": {"staging_id": 99`);
    await emulator.close();
    const restarted = await testEmulator({ flavor: 'current', dataFile: copy, processingMs: 10 });
    try {
      expect(restarted.state.uploads.map((u) => u.staging_id)).toEqual(ids);
      expect(restarted.state.uploads.map((u) => u.result_id)).toEqual(statementIds);
      expect(readFileSync(`${copy}.journal`, 'utf8')).toBe(journal);
      const next = await stagingId(await upload(restarted, 'c.pdf'));
      expect(next).toBe(ids[1]! + 1);
    } finally {
      await restarted.close();
    }
  });

  it('folds the journal into a new snapshot once it passes its size', async () => {
    const dataFile = join(dir, 'compact.json');
    const emulator = await testEmulator({ flavor: 'current', dataFile, journalCompactBytes: 2000 });
    try {
      const before = statSync(dataFile).mtimeMs;
      for (let i = 0; i < 8; i++) await stagingId(await upload(emulator, `c${i}.pdf`));
      expect(statSync(`${dataFile}.journal`).size).toBeLessThan(2000 + 2048);
      expect(statSync(dataFile).mtimeMs).toBeGreaterThan(before);
      const snapshot = JSON.parse(readFileSync(dataFile, 'utf8')) as { uploads: unknown[] };
      expect(snapshot.uploads.length).toBeGreaterThan(0);
      expect(snapshot.uploads.length).toBeLessThanOrEqual(8);
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  it('answers 500 and keeps nothing when the change cannot be written; works again once it can', async () => {
    const dataFile = join(dir, 'failing.json');
    const emulator = await testEmulator({ flavor: 'current', dataFile });
    try {
      await stagingId(await upload(emulator, 'first.pdf'));
      // The journal's place is taken by a directory: appending to it fails.
      rmSync(`${dataFile}.journal`);
      mkdirSync(`${dataFile}.journal`);
      const failed = await upload(emulator, 'lost.pdf');
      expect(failed.status).toBe(500);
      expect(ErrorBody.parse(await failed.json()).error.message).toBe(
        'could not save the upload; nothing was kept, retry later',
      );
      expect(emulator.state.uploads.map((u) => u.file_name)).toEqual(['first.pdf']);
      const connect = await call(emulator, `/v1/projects/${DEMO_PROJECT_ID}/sandbox/connect`, { method: 'POST' });
      expect(connect.status).toBe(500);
      expect(emulator.state.sandboxes).toEqual({});

      rmSync(`${dataFile}.journal`, { recursive: true });
      await stagingId(await upload(emulator, 'retried.pdf'));
      expect(emulator.state.uploads.map((u) => u.file_name)).toEqual(['first.pdf', 'retried.pdf']);
    } finally {
      await emulator.close();
    }
    const again = await testEmulator({ flavor: 'current', dataFile });
    try {
      expect(again.state.uploads.map((u) => u.file_name)).toEqual(['first.pdf', 'retried.pdf']);
    } finally {
      await again.close();
    }
  });

  it('removes the temporary snapshot a crash left behind', async () => {
    const dataFile = join(dir, 'stale.json');
    const first = await testEmulator({ flavor: 'current', dataFile });
    await first.close();
    writeFileSync(`${dataFile}.12345.tmp`, '{"half": ');
    const second = await testEmulator({ flavor: 'current', dataFile });
    try {
      expect(existsSync(`${dataFile}.12345.tmp`)).toBe(false);
    } finally {
      await second.close();
    }
  });
});
