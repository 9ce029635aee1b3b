// The emulator's download endpoints and its storage host (a second port), over real HTTP.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ContractUpload,
  DownloadLink,
  ErrorBody,
  StatementProcesses,
  StatementUpload,
  envelope,
} from '../helpers/spec-forms.js';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { generatedPdf } from '../../src/emulator/generated-files.js';
import { call, sharedEmulator, testEmulator } from '../helpers/emulator.js';

const PDF = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url));
const emulator = sharedEmulator({ flavor: 'current', processingMs: 20 });

async function linkOf(kind: 'contracts' | 'statements', id: string | number) {
  const response = await call(emulator, `/v1/${kind}/${id}/download?projectId=${DEMO_PROJECT_ID}`);
  expect(response.status).toBe(200);
  return envelope(DownloadLink).parse(await response.json()).data;
}

describe('download endpoints', () => {
  it('answer a signed URL on another origin, with the file name, type and lifetime', async () => {
    const contract = emulator.state.data[DEMO_PROJECT_ID]?.contracts[0];
    const link = await linkOf('contracts', contract?.id as string);
    expect(new URL(link.url).origin).toBe(emulator.storage.origin);
    expect(emulator.storage.origin).not.toBe(emulator.url);
    expect(link).toMatchObject({ fileType: 'application/pdf', expiresIn: 300 });
    expect(link.fileName).toMatch(/^[\p{L}\p{N}_]+\.pdf$/u);
    const statement = emulator.state.data[DEMO_PROJECT_ID]?.statements[0];
    expect((await linkOf('statements', statement?.id as number)).fileName).toBe(statement?.file_name);
  });

  it('serve seeded records a small valid PDF, and log that the request carried no Authorization header', async () => {
    const statement = emulator.state.data[DEMO_PROJECT_ID]?.statements[0];
    const link = await linkOf('statements', statement?.id as number);
    const file = await fetch(link.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toMatch(/%%EOF\n$/);
    expect(Number(file.headers.get('content-length'))).toBe(bytes.length);
    expect(emulator.storage.requests.at(-1)).toMatchObject({ method: 'GET', authorization: false, status: 200 });
  });

  it('logs a file request that carries an Authorization header', async () => {
    const link = await linkOf('contracts', emulator.state.data[DEMO_PROJECT_ID]?.contracts[1]?.id as string);
    await (await fetch(link.url, { headers: { authorization: 'Bearer demo-org-token' } })).arrayBuffer();
    expect(emulator.storage.requests.at(-1)).toMatchObject({ authorization: true });
  });

  it('answer 404 for an unknown record and 400 without a projectId; the storage host answers 403 to a tampered URL', async () => {
    const missing = await call(emulator, `/v1/contracts/99999/download?projectId=${DEMO_PROJECT_ID}`);
    expect(missing.status).toBe(404);
    expect(ErrorBody.parse(await missing.json()).error.message).toBe("contract '99999' not found");
    expect((await call(emulator, '/v1/statements/40001/download')).status).toBe(400);
    const link = await linkOf('statements', emulator.state.data[DEMO_PROJECT_ID]?.statements[0]?.id as number);
    const otherFile = link.url.replace(/\/(\d+)\?/, (_, id: string) => `/${Number(id) + 1}?`);
    expect((await fetch(otherFile)).status).toBe(403);
    const laterExpiry = link.url.replace(/expires=(\d+)/, (_, t: string) => `expires=${Number(t) + 3600}`);
    const denied = await fetch(laterExpiry);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });

  it('serve an uploaded document its own bytes', async () => {
    const form = new FormData();
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'mine.pdf');
    const upload = await call(emulator, `/v1/statements?projectId=${DEMO_PROJECT_ID}`, { method: 'POST', body: form });
    expect(upload.status).toBe(200);
    const stagingId = envelope(StatementUpload).parse(await upload.json()).data.staging_id;
    let statementId: number | null = null;
    for (let i = 0; i < 100 && statementId === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const status = await call(emulator, `/v1/statements/${stagingId}/processes?projectId=${DEMO_PROJECT_ID}`);
      statementId = envelope(StatementProcesses).parse(await status.json()).data.statement_id;
    }
    const link = await linkOf('statements', statementId as number);
    expect(link.fileName).toBe('mine.pdf');
    expect(Buffer.from(await (await fetch(link.url)).arrayBuffer()).equals(PDF)).toBe(true);
  });
});

describe('signed URL lifetime (--url-ttl)', () => {
  it('answers 403 once the URL has expired', async () => {
    const shortLived = await testEmulator({ flavor: 'current', urlTtlSeconds: 0 });
    try {
      const id = shortLived.state.data[DEMO_PROJECT_ID]?.contracts[0]?.id as string;
      const answer = await call(shortLived, `/v1/contracts/${id}/download?projectId=${DEMO_PROJECT_ID}`);
      const link = envelope(DownloadLink).parse(await answer.json()).data;
      expect(link.expiresIn).toBe(0);
      const file = await fetch(link.url);
      expect(file.status).toBe(403);
      expect(await file.text()).toContain('<Code>AccessDenied</Code>');
    } finally {
      await shortLived.close();
    }
  });

  it('is absent from a service without downloads: 404', async () => {
    const without = await testEmulator({ flavor: 'current', downloads: false });
    try {
      expect((await call(without, `/v1/contracts/20001/download?projectId=${DEMO_PROJECT_ID}`)).status).toBe(404);
    } finally {
      await without.close();
    }
  });
});

describe('generatedPdf', () => {
  it('has a cross-reference table whose offsets point at its objects', () => {
    const pdf = generatedPdf('A (title) with \\ and ünïcode').toString('latin1');
    const xref = Number(/startxref\n(\d+)\n/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) => {
      expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true);
    });
    expect(pdf).toContain('(A \\(title\\) with \\\\ and ?n?code) Tj');
  });
});

describe('uploaded files with --data', () => {
  it('are kept beside the data file and served after a restart', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'pds-emulator-data-')), 'state.json');
    let running = await testEmulator({ flavor: 'current', dataFile, processingMs: 20 });
    let stagingId: number;
    try {
      const form = new FormData();
      form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'kept.pdf');
      const upload = await call(running, `/v1/contracts?projectId=${DEMO_PROJECT_ID}`, { method: 'POST', body: form });
      stagingId = envelope(ContractUpload).parse(await upload.json()).data.staging_id;
      expect(readFileSync(join(`${dataFile}.files`, `${stagingId}.pdf`)).equals(PDF)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The upload becomes a contract on the next request.
      await call(running, `/v1/contracts/${stagingId}/processes?projectId=${DEMO_PROJECT_ID}`);
    } finally {
      await running.close();
    }
    running = await testEmulator({ flavor: 'current', dataFile, processingMs: 20 });
    try {
      const contract = running.state.data[DEMO_PROJECT_ID]?.contracts.find((c) => c.staging_id === stagingId);
      const answer = await call(running, `/v1/contracts/${contract?.id}/download?projectId=${DEMO_PROJECT_ID}`);
      const link = envelope(DownloadLink).parse(await answer.json()).data;
      expect(link.fileName).toBe('kept.pdf');
      expect(Buffer.from(await (await fetch(link.url)).arrayBuffer()).equals(PDF)).toBe(true);
    } finally {
      await running.close();
    }
    expect(existsSync(`${dataFile}.files`)).toBe(true);
  });

  it('a refused upload leaves no file behind', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'pds-emulator-data-')), 'state.json');
    const running = await testEmulator({ flavor: 'current', dataFile });
    try {
      const form = new FormData();
      form.append('file', new Blob(['not a pdf at all'], { type: 'application/pdf' }), 'bad.pdf');
      const upload = await call(running, `/v1/contracts?projectId=${DEMO_PROJECT_ID}`, { method: 'POST', body: form });
      expect(upload.status).toBe(400);
      expect(readdirSync(`${dataFile}.files`)).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
