// Batches a CI job can trust (issue 19), through the built CLI against the emulator: keep going past
// a bad file, re-runs that skip what is there (by name and size, or by content), dry runs that send
// no write, directories, and the reports GitHub Actions and JUnit readers take.
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });

/** A small PDF whose bytes differ by `tag`; the same length for tags of the same length. */
function pdf(tag: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n% ${tag}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'pds-batch-'));
}

const writes = () => emulator.requests.filter((r) => r.method !== 'GET');
/** The default emulator is the deployed service: an upload is a mint (`POST …/uploads`), a PUT to the storage host and a complete. */
const mints = () =>
  writes().filter((r) => r.method === 'POST' && /^\/v1\/(contract|statement)s\/uploads$/.test(r.path));
/** A mint's request log records no file; its staging record names it. The upload records made after `since`, in order. */
const newUploads = (since: number) =>
  emulator.state.uploads.filter((u) => u.staging_id > since).sort((a, b) => a.staging_id - b.staging_id);
const lastStagingId = () => Math.max(0, ...emulator.state.uploads.map((u) => u.staging_id));
const uploadsOf = (names: string[]) => emulator.state.uploads.filter((u) => names.includes(u.file_name));
const lastLine = (stderr: string) => stderr.trimEnd().split('\n').at(-1);
/** The summary line's duration varies from run to run. */
const SUMMARY_TIME = / \(\d+\.\ds\)\n$/;

describe('a batch of 40 with one bad file', () => {
  it('uploads the 39 others (exit 1); run again with --skip-existing, uploads none and skips 39 (exit 1)', async () => {
    const dir = tempDir();
    const files = Array.from({ length: 40 }, (_, i) => {
      const path = join(dir, `nightly-${String(i).padStart(2, '0')}.pdf`);
      writeFileSync(path, i === 17 ? 'not a pdf at all\n' : pdf(`nightly ${i}`));
      return path;
    });
    const bad = files[17] as string;
    const env = signedInEnv(emulator.url);

    const first = await runPds(['upload', 'statement', ...files, '--concurrency', '8'], { env, killAfterMs: 30_000 });
    expect(first.code).toBe(1);
    // One mint and one complete per uploaded file, nothing else written; the bad file sent nothing.
    expect(mints()).toHaveLength(39);
    expect(writes().filter((r) => r.path === '/v1/statements/uploads/complete')).toHaveLength(39);
    expect(
      writes().every(
        (r) =>
          r.method === 'POST' && (r.path === '/v1/statements/uploads' || r.path === '/v1/statements/uploads/complete'),
      ),
    ).toBe(true);
    expect(first.stderr).toContain(`error: ${bad}: not a PDF: the file does not start with %PDF-\n`);
    expect(lastLine(first.stderr)).toMatch(/^39 uploaded, 0 skipped, 1 failed \(\d+\.\ds\)$/);
    expect(first.stdout.split('\n').filter(Boolean)).toHaveLength(40); // header + 39 rows

    emulator.requests.length = 0;
    const again = await runPds(['upload', 'statement', ...files, '--skip-existing', '--json'], { env });
    expect(again.code).toBe(1);
    expect(writes()).toEqual([]);
    // The records were listed once, every page of them.
    const lists = emulator.requests.filter((r) => r.path === '/v1/statements');
    expect(lists.length).toBeGreaterThan(0);
    expect(new Set(lists.map((r) => r.query.page)).size).toBe(lists.length);
    expect(lastLine(again.stderr)).toMatch(/^0 uploaded, 39 skipped, 1 failed \(\d+\.\ds\)$/);
    const entries = JSON.parse(again.stdout) as {
      file: string;
      skipped?: boolean;
      id?: string;
      error?: { message: string };
    }[];
    expect(entries).toHaveLength(40);
    expect(entries[17]).toEqual({ file: bad, error: { message: 'not a PDF: the file does not start with %PDF-' } });
    const statements = emulator.state.data[Object.keys(emulator.state.data)[0] as string]?.statements ?? [];
    for (const [i, entry] of entries.entries()) {
      if (i === 17) continue;
      const record = statements.find((s) => s.file_name === `nightly-${String(i).padStart(2, '0')}.pdf`);
      expect(entry).toEqual({ file: files[i], skipped: true, id: String(record?.id) });
    }
  });
});

describe('--skip-existing', () => {
  it('by name and size skips a changed file of the same size; =content uploads it, and skips the unchanged one after comparing bytes', async () => {
    const dir = tempDir();
    const same = join(dir, 'same-q1.pdf');
    const changed = join(dir, 'changed-q1.pdf');
    writeFileSync(same, pdf('version A'));
    writeFileSync(changed, pdf('version A'));
    const env = signedInEnv(emulator.url);
    expect((await runPds(['upload', 'statement', same, changed], { env })).code).toBe(0);
    const firstIds = uploadsOf(['changed-q1.pdf']).map((u) => u.staging_id);
    writeFileSync(changed, pdf('version B')); // same length, other bytes

    emulator.requests.length = 0;
    const byName = await runPds(['upload', 'statement', same, changed, '--skip-existing'], { env });
    expect(byName.code).toBe(0);
    expect(writes()).toEqual([]);
    const record = (name: string) =>
      emulator.state.data[Object.keys(emulator.state.data)[0] as string]?.statements.find((s) => s.file_name === name)
        ?.id;
    expect(byName.stderr.replace(SUMMARY_TIME, '\n')).toBe(
      `skipped ${same}: already uploaded (statement ${record('same-q1.pdf')})\n` +
        `skipped ${changed}: already uploaded (statement ${record('changed-q1.pdf')})\n` +
        '0 uploaded, 2 skipped, 0 failed\n',
    );

    emulator.requests.length = 0;
    emulator.storage.requests.length = 0;
    const before = lastStagingId();
    const byContent = await runPds(['upload', 'statement', same, changed, '--skip-existing=content'], { env });
    expect(byContent.code).toBe(0);
    expect(mints()).toHaveLength(1);
    expect(newUploads(before).map((u) => u.file_name)).toEqual(['changed-q1.pdf']);
    expect(uploadsOf(['changed-q1.pdf']).map((u) => u.staging_id)).toHaveLength(firstIds.length + 1);
    // Both records' files were fetched from storage and the changed one put there, none with pds's credential.
    expect(emulator.storage.requests.map((r) => [r.method, r.authorization]).sort()).toEqual([
      ['GET', false],
      ['GET', false],
      ['PUT', false],
    ]);
    expect(byContent.stderr).toContain(`skipped ${same}: already uploaded (statement ${record('same-q1.pdf')})\n`);
    expect(byContent.stderr).toContain(`uploading ${changed} (${pdf('version B').length} B), changed\n`);
    expect(byContent.stderr).toMatch(new RegExp(`uploaded ${changed} \\(\\d+ B, changed\\): staging id \\d+`));
    expect(lastLine(byContent.stderr)).toMatch(/^1 uploaded, 1 skipped, 0 failed \(\d+\.\ds\)$/);
  });

  it('=content: a record whose file cannot be fetched fails that file, and nothing is sent', async () => {
    const file = join(tempDir(), 'unfetchable.pdf');
    writeFileSync(file, pdf('unfetchable'));
    const env = signedInEnv(emulator.url);
    expect((await runPds(['upload', 'statement', file], { env })).code).toBe(0);
    emulator.requests.length = 0;
    emulator.storage.faults.expire = 1;
    try {
      const run = await runPds(['upload', 'statement', file, '--skip-existing=content'], { env });
      expect(run.code).toBe(1);
      expect(writes()).toEqual([]);
      expect(run.stderr).toMatch(
        /^error: \S+unfetchable\.pdf: cannot compare it with the project's copy: the storage host http:\/\/127\.0\.0\.1:\d+ answered HTTP 403: the download URL expired or was refused\n/,
      );
      expect(lastLine(run.stderr)).toMatch(/^0 uploaded, 0 skipped, 1 failed /);
    } finally {
      emulator.storage.faults.expire = 0;
    }
  });

  it('uploads a file given twice once, with or without --skip-existing: the second is the same file', async () => {
    const file = join(tempDir(), 'twice.pdf');
    writeFileSync(file, pdf('twice'));
    for (const flags of [['--skip-existing'], []]) {
      emulator.requests.length = 0;
      const before = lastStagingId();
      const run = await runPds(['upload', 'contract', file, file, ...flags], { env: signedInEnv(emulator.url) });
      expect(run.code).toBe(0);
      expect(newUploads(before).map((u) => u.file_name)).toEqual(['twice.pdf']);
      expect(run.stderr).toContain(`skipped ${file}: the same file as ${file}\n`);
    }
  });

  it('one file goes once: other spellings, a directory, a symbolic and a hard link reach it; --dry-run says so', async () => {
    const dir = tempDir();
    const file = join(dir, 'once.pdf');
    writeFileSync(file, pdf('once'));
    symlinkSync(file, join(dir, 'soft.pdf'));
    linkSync(file, join(dir, 'hard.pdf'));
    const args = ['upload', 'contract', file, `${dir}/./once.pdf`, dir, join(dir, 'soft.pdf')];
    const plan = await runPds([...args, '--dry-run'], { env: signedInEnv(emulator.url) });
    expect(plan.code).toBe(0);
    expect(plan.stdout.split('\n').filter(Boolean)).toEqual([
      `would upload ${file} (${pdf('once').length} B)`,
      `would skip ${dir}/./once.pdf: the same file as ${file}`,
      `would skip ${join(dir, 'hard.pdf')}: the same file as ${file}`,
      `would skip ${file}: the same file as ${file}`,
      `would skip ${join(dir, 'soft.pdf')}: the same file as ${file}`,
      `would skip ${join(dir, 'soft.pdf')}: the same file as ${file}`,
    ]);
    expect(lastLine(plan.stderr)).toMatch(
      /^dry run: 1 would upload, 5 would skip \(5 the same file as another\), 0 would fail /,
    );
    const before = lastStagingId();
    const run = await runPds(args, { env: signedInEnv(emulator.url) });
    expect(run.code).toBe(0);
    expect(newUploads(before).map((u) => u.file_name)).toEqual(['once.pdf']);
    expect(lastLine(run.stderr)).toMatch(/^1 uploaded, 5 skipped \(5 the same file as another\), 0 failed /);
  });

  it('refuses a value other than name or content, and says how to write it before the files', async () => {
    const run = await runPds(['upload', 'statement', '--skip-existing', 'a.pdf', 'b.pdf'], {
      env: signedInEnv(emulator.url),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "invalid --skip-existing 'a.pdf': expected one of name, content (write --skip-existing=<name|content>, or put --skip-existing after the files)",
    );
    expect(emulator.requests).toEqual([]);
  });
});

describe('--dry-run', () => {
  it('checks and reads, says what each file would do, sends no write and exits as the real run would', async () => {
    const dir = tempDir();
    const old = join(dir, 'dry-old.pdf');
    writeFileSync(old, pdf('dry old'));
    const env = signedInEnv(emulator.url);
    expect((await runPds(['upload', 'statement', old], { env })).code).toBe(0);
    const fresh = join(dir, 'dry-new.pdf');
    writeFileSync(fresh, pdf('dry new'));
    const bad = join(dir, 'dry-bad.pdf');
    writeFileSync(bad, '');

    emulator.requests.length = 0;
    const run = await runPds(['upload', 'statement', dir, '--skip-existing=content', '--dry-run'], { env });
    expect(run.code).toBe(1);
    expect(emulator.requests.length).toBeGreaterThan(0);
    expect(emulator.requests.every((r) => r.method === 'GET')).toBe(true);
    const id = emulator.state.data[Object.keys(emulator.state.data)[0] as string]?.statements.find(
      (s) => s.file_name === 'dry-old.pdf',
    )?.id;
    expect(run.stdout).toBe(
      `would fail: ${bad}: the file is empty\n` +
        `would upload ${fresh} (${pdf('dry new').length} B)\n` +
        `would skip ${old}: already uploaded (statement ${id})\n`,
    );
    expect(lastLine(run.stderr)).toMatch(/^dry run: 1 would upload, 1 would skip, 1 would fail \(\d+\.\ds\)$/);

    const json = await runPds(['upload', 'statement', fresh, fresh, '--skip-existing', '--dry-run', '--json'], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { file: fresh, would: 'upload' },
      { file: fresh, would: 'skip', skipped: true, same_as: fresh },
    ]);
    expect(emulator.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('a single bad file: exit 2 as the real run, nothing sent', async () => {
    const run = await runPds(['upload', 'contract', '/nonexistent/x.pdf', '--dry-run'], {
      env: signedInEnv(emulator.url),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: /nonexistent/x.pdf: no such file\n');
    expect(writes()).toEqual([]);
  });
});

describe('directories', () => {
  it('takes the statement files in a directory, sorted by path, hidden ones and other types left out; --recursive, --include and --exclude select', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub', 'deeper'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    for (const name of [
      'b-2026.pdf',
      'a-2026.PDF',
      'a-2025.pdf',
      '.hidden.pdf',
      'sub/c-2026.pdf',
      'sub/deeper/d-2026.pdf',
      '.git/e-2026.pdf',
      'sub/draft-2026.pdf',
    ]) {
      writeFileSync(join(dir, name), pdf(name));
    }
    // A .txt is one of the service's statement formats (SERVICE-NOW.md); a .md is not, and is left out.
    writeFileSync(join(dir, 'notes.txt'), 'isrc,units,amount\nUSRC17607839,120,3.60\n');
    writeFileSync(join(dir, 'notes.md'), '# notes\n');
    const env = signedInEnv(emulator.url);
    const flat = await runPds(['upload', 'statement', dir, '--dry-run', '-q'], { env });
    expect(flat.stdout).toBe(
      [join(dir, 'a-2025.pdf'), join(dir, 'a-2026.PDF'), join(dir, 'b-2026.pdf'), join(dir, 'notes.txt'), ''].join(
        '\n',
      ),
    );

    const before = lastStagingId();
    const run = await runPds(
      ['upload', 'statement', dir, '--recursive', '--include', '*-2026.*', '--exclude', 'sub/draft-*', '-q'],
      { env },
    );
    expect(run.code).toBe(0);
    expect(mints()).toHaveLength(4);
    expect(
      newUploads(before)
        .map((u) => u.file_name)
        .sort(),
    ).toEqual(['a-2026.PDF', 'b-2026.pdf', 'c-2026.pdf', 'd-2026.pdf']);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(4);

    const none = await runPds(['upload', 'statement', join(dir, 'sub'), '--include', '*.csv', '--dry-run'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      `warning: ${join(dir, 'sub')}: no statement files to upload in it (--recursive takes its subdirectories too)\nerror: no files to upload\n`,
    );
  });
});

describe('reports', () => {
  it('GitHub Actions: annotations (on stderr beside the data), the step summary and the outputs, escaped; JUnit and JSON reports', async () => {
    const dir = tempDir();
    const good = join(dir, 'gh-good.pdf');
    writeFileSync(good, pdf('gh good'));
    const bad = join(dir, 'gh 100%, bad: one\nline.pdf');
    writeFileSync(bad, 'oops');
    const summaryFile = join(dir, 'summary.md');
    const outputFile = join(dir, 'output.txt');
    writeFileSync(outputFile, 'earlier=1\n');
    const junit = join(dir, 'pds.xml');
    const jsonReport = join(dir, 'pds.json');
    const env = signedInEnv(emulator.url, {
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: dir,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      CI: 'true',
    });
    const run = await runPds(
      ['upload', 'statement', good, bad, '-q', '--report', `junit=${junit}`, '--report', `json=${jsonReport}`],
      { env },
    );
    expect(run.code).toBe(1);
    const id = uploadsOf(['gh-good.pdf']).at(-1)?.staging_id;
    // stdout carries data (the ids of -q), the same as without GITHUB_ACTIONS; the annotations go to stderr.
    expect(run.stdout).toBe(`${id}\n`);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('::'))).toEqual([
      '::error file=gh 100%25%2C bad%3A one%0Aline.pdf,title=pds upload::not a PDF: the file does not start with %25PDF-',
      '::error title=pds upload statement failed (exit 1)::in CI: the annotations name the files that failed: fix them (or the inputs) and re-run the job; if all failed alike, check the `api-url` input (PDS_API_URL) and that the service is up; a re-run may pass',
    ]);
    expect(readFileSync(outputFile, 'utf8')).toBe(
      `earlier=1\nuploaded=1\nskipped=0\nfailed=1\nstaging-ids=${id}\nexit-code=1\nerror=gh 100%, bad: one\\nline.pdf: not a PDF: the file does not start with %PDF-\n`,
    );
    expect(readFileSync(summaryFile, 'utf8')).toBe(
      '### pds upload statement\n\n' +
        '1 uploaded, 0 skipped, 1 failed\n\n' +
        '| File | Outcome | Record | Reason |\n' +
        '| --- | --- | --- | --- |\n' +
        // Failures first; every file named relative to the workspace.
        '| gh 100%, bad: one\\\\nline.pdf | failed |  | not a PDF: the file does not start with %PDF- |\n' +
        `| gh-good.pdf | uploaded | staging id ${id} |  |\n\n` +
        '### pds upload statement failed (exit 1)\n\n' +
        '**In CI:** the annotations name the files that failed: fix them \\(or the inputs\\) and re-run the job; if all failed alike, check the \\`api-url\\` input \\(PDS\\_API\\_URL\\) and that the service is up; a re-run may pass\n\n',
    );

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="pds upload statement" tests="2" failures="1" errors="0" skipped="0" ');
    expect(xml).toContain('name="gh 100%, bad: one&#10;line.pdf"');
    expect(xml).toContain(
      '<failure message="not a PDF: the file does not start with %PDF-">not a PDF: the file does not start with %PDF-</failure>',
    );
    const parsed = parseXml(junit);
    if (parsed === undefined) console.log('skipped: the XML parser check needs python3, which this machine lacks');
    else expect(parsed).toEqual({ tests: '2', failures: '1', skipped: '0', cases: 2 });

    const report = JSON.parse(readFileSync(jsonReport, 'utf8')) as {
      uploaded: number;
      skipped: number;
      failed: number;
      files: { file: string }[];
    };
    expect(report).toMatchObject({ uploaded: 1, skipped: 0, failed: 1 });
    expect(report.files.map((f) => f.file)).toEqual(['gh-good.pdf', 'gh 100%, bad: one\nline.pdf']);
  });

  it('a service string cannot inject a workflow command through the outputs or annotations', async () => {
    // The file name holds a line that would be a command of its own, were it written raw.
    const dir = tempDir();
    const bad = join(dir, 'x\n::set-output name=failed::0\n.pdf');
    writeFileSync(bad, '');
    const other = join(dir, 'y.pdf');
    writeFileSync(other, '');
    const outputFile = join(dir, 'output.txt');
    const env = signedInEnv(emulator.url, { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, GITHUB_OUTPUT: outputFile });
    const run = await runPds(['upload', 'statement', bad, other], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('::'));
    expect(lines).toEqual([
      '::error file=x%0A%3A%3Aset-output name=failed%3A%3A0%0A.pdf,title=pds upload::the file is empty',
      '::error file=y.pdf,title=pds upload::the file is empty',
      '::error title=pds upload statement failed (exit 2)::in CI: the annotations name the files that failed: fix them (or the inputs) and re-run the job',
    ]);
    expect(readFileSync(outputFile, 'utf8')).toBe(
      'uploaded=0\nskipped=0\nfailed=2\nstaging-ids=\nexit-code=2\nerror=x\\n::set-output name=failed::0\\n.pdf: the file is empty (and 1 more failed)\n',
    );
  });

  it('nothing of GitHub when GITHUB_ACTIONS is unset', async () => {
    const dir = tempDir();
    const bad = join(dir, 'plain.pdf');
    writeFileSync(bad, '');
    const outputFile = join(dir, 'output.txt');
    const run = await runPds(['upload', 'statement', bad, bad], {
      env: signedInEnv(emulator.url, { GITHUB_ACTIONS: undefined, GITHUB_OUTPUT: outputFile }),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(() => readFileSync(outputFile)).toThrow();
  });

  it('refuses a --report it cannot write before sending anything', async () => {
    const bad = await runPds(['upload', 'statement', 'a.pdf', '--report', 'xml=r.xml'], {
      env: signedInEnv(emulator.url),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("error: invalid --report 'xml=r.xml': expected junit=<file> or json=<file>\n");
    expect(emulator.requests).toEqual([]);
  });
});

describe('a non-interactive log', () => {
  it('says when a file starts, each quarter of a file over 5 MiB, and when it ends; no frame, no \\r', async () => {
    const dir = tempDir();
    const big = join(dir, 'big.pdf');
    const body = Buffer.alloc(6 * 1024 * 1024, 0x20);
    body.write('%PDF-1.4\n', 0, 'latin1');
    body.write('\n%%EOF\n', body.length - 7, 'latin1');
    writeFileSync(big, body);
    const run = await runPds(['upload', 'statement', big], { env: signedInEnv(emulator.url, { CI: 'true' }) });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('\r');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(`uploading ${big} (6.0 MiB)`);
    for (const [i, quarter] of ['25', '50', '75'].entries())
      expect(lines[i + 1]).toMatch(new RegExp(`^${big}: ${quarter}% sent \\([\\d.]+ MiB of 6\\.0 MiB\\)$`));
    expect(lines[4]).toMatch(new RegExp(`^uploaded ${big} \\(6\\.0 MiB\\): staging id \\d+, queued; `));
  });
});

/** The report parsed by a real XML parser (python3's): undefined when python3 is not installed. */
function parseXml(path: string): { tests: string; failures: string; skipped: string; cases: number } | undefined {
  const script =
    'import json,sys,xml.dom.minidom as m\n' +
    'd=m.parse(sys.argv[1]);s=d.getElementsByTagName("testsuite")[0]\n' +
    'print(json.dumps({"tests":s.getAttribute("tests"),"failures":s.getAttribute("failures"),"skipped":s.getAttribute("skipped"),"cases":len(d.getElementsByTagName("testcase"))}))';
  const result = spawnSync('python3', ['-c', script, path], { encoding: 'utf8' });
  if (result.error) return undefined;
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { tests: string; failures: string; skipped: string; cases: number };
}
