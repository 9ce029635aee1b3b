// The CI report formats, byte for byte (the end-to-end runs are in test/process/upload-batch.test.ts).
import { describe, expect, it } from 'vitest';
import {
  escapeCommandData,
  escapeCommandProperty,
  githubAnnotations,
  junitXml,
  stepOutputs,
  stepSummary,
  type FileReport,
} from '../../src/lib/ci/report.js';
import { formatDuration } from '../../src/commands/upload/batch.js';

const files: FileReport[] = [
  { path: 'ok.pdf', outcome: 'uploaded', record: 'staging id 7', stagingId: '7', ms: 1250 },
  { path: 'same.pdf', outcome: 'skipped', record: 'statement 12', reason: 'already uploaded (statement 12)' },
  { path: 'bad <1>.pdf', outcome: 'failed', reason: 'not a PDF\n  detail "quoted" & more' },
  {
    path: 'late.pdf',
    outcome: 'uploaded',
    record: 'staging id 8',
    stagingId: '8',
    reason: 'processing failed (staging id 8)',
  },
  { path: 'never.pdf', outcome: 'failed', reason: 'not started: --fail-fast stopped the batch' },
];

describe('GitHub workflow commands', () => {
  it('escapes data and properties as the runner decodes them', () => {
    expect(escapeCommandData('100% done\r\nnext::x')).toBe('100%25 done%0D%0Anext::x');
    expect(escapeCommandProperty('a,b: 50%\n')).toBe('a%2Cb%3A 50%25%0A');
  });

  it('annotates failed uploads and failed processing, relative to the workspace', () => {
    expect(
      githubAnnotations(
        files.map((f) => ({ ...f, path: `/w/${f.path}` })),
        '/w',
      ),
    ).toBe(
      '::error file=bad <1>.pdf,title=pds upload::not a PDF%0A  detail "quoted" & more\n' +
        '::error file=late.pdf,title=pds upload::processing failed (staging id 8)\n' +
        '::error file=never.pdf,title=pds upload::not started: --fail-fast stopped the batch\n',
    );
    // Outside the workspace, and stdin, which is no file.
    expect(
      githubAnnotations(
        [
          { path: '/elsewhere/x.pdf', outcome: 'failed', reason: 'r' },
          { path: '-', outcome: 'failed', reason: 'r' },
        ],
        '/w',
      ),
    ).toBe('::error file=/elsewhere/x.pdf,title=pds upload::r\n::error title=pds upload::r\n');
  });

  it('keeps only safe characters of a staging id in the outputs', () => {
    expect(stepOutputs({ uploaded: 2, skipped: 0, failed: 0 }, ['7', '8\nfailed=0', ''])).toBe(
      'uploaded=2\nskipped=0\nfailed=0\nstaging-ids=7,8failed0\n',
    );
  });

  it('writes one Markdown row per file, cells that cannot break the table', () => {
    expect(
      stepSummary('pds upload statement', '2 uploaded', [
        { path: 'a|b`c\n.pdf', outcome: 'failed', reason: '<b>x</b>\nmore' },
      ]),
    ).toBe(
      '### pds upload statement\n\n2 uploaded\n\n| File | Outcome | Record | Reason |\n| --- | --- | --- | --- |\n| a\\|b\\`c\\\\n.pdf | failed |  | &lt;b&gt;x&lt;/b&gt; |\n\n',
    );
  });

  it('renders no link, image, emphasis, HTML, math or mention from service text in the step summary', () => {
    const reason =
      '[sign in again](https://evil.example/x) ![t](https://evil.example/p.png) **now** _x_ ~~y~~ $z$ <img src=x> @octocat \\';
    const row = stepSummary('t', 'c', [{ path: '*a*.csv', outcome: 'failed', reason }]).split('\n')[6];
    expect(row).toBe(
      '| \\*a\\*.csv | failed |  | ' +
        '\\[sign in again\\]\\(https\\://evil.example/x\\) \\!\\[t\\]\\(https\\://evil.example/p.png\\) \\*\\*now\\*\\* \\_x\\_ \\~\\~y\\~\\~ \\$z\\$ &lt;img src=x&gt; @<!-- -->octocat \\\\ |',
    );
  });

  it("shows control and bidi characters of a reason as escapes in an annotation, then escapes it for the runner; the file stays the file's path", () => {
    const files: FileReport[] = [
      { path: 'a,b:\nc.csv', outcome: 'failed', reason: 'bad \u001b]0;owned\u0007 \u001b[2J\r100%\nline two\u202e' },
    ];
    expect(githubAnnotations(files, undefined)).toBe(
      '::error file=a%2Cb%3A%0Ac.csv,title=pds upload::bad \\x1b]0;owned\\x07 \\x1b[2J\\r100%25%0Aline two\\u{202e}\n',
    );
  });
});

it('JUnit XML: a testcase per file, failures with their reason, skips as skipped, XML-escaped', () => {
  expect(junitXml('pds upload statement', files, 3000)).toBe(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="pds" tests="5" failures="3" errors="0" skipped="1" time="3.000">',
      '  <testsuite name="pds upload statement" tests="5" failures="3" errors="0" skipped="1" time="3.000">',
      '    <testcase classname="pds upload statement" name="ok.pdf" time="1.250"/>',
      '    <testcase classname="pds upload statement" name="same.pdf" time="0.000">',
      '      <skipped message="already uploaded (statement 12)"/>',
      '    </testcase>',
      '    <testcase classname="pds upload statement" name="bad &lt;1&gt;.pdf" time="0.000">',
      '      <failure message="not a PDF">not a PDF&#10;  detail &quot;quoted&quot; &amp; more</failure>',
      '    </testcase>',
      '    <testcase classname="pds upload statement" name="late.pdf" time="0.000">',
      '      <failure message="processing failed (staging id 8)">processing failed (staging id 8)</failure>',
      '    </testcase>',
      '    <testcase classname="pds upload statement" name="never.pdf" time="0.000">',
      '      <failure message="not started: --fail-fast stopped the batch">not started: --fail-fast stopped the batch</failure>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'),
  );
  expect(junitXml('s', [{ path: 'a\u0001b', outcome: 'uploaded' }], 0)).toContain('name="a\\x01b"');
});

it('says a duration as the summary line does', () => {
  expect([0, 420, 12_345, 59_949, 64_000, 3_789_000].map(formatDuration)).toEqual([
    '0.0s',
    '0.4s',
    '12.3s',
    '59.9s',
    '1m04s',
    '1h03m09s',
  ]);
});

describe('CI hints', () => {
  it('every exit code has a hint of its own for a workflow, with no desktop command in it', async () => {
    const { ciHint } = await import('../../src/lib/ci/failure.js');
    const { ExitCode, STOP_SIGNALS } = await import('../../src/lib/errors.js');
    const codes = [...Object.values(ExitCode), ...Object.values(STOP_SIGNALS)].filter((code) => code !== 0);
    for (const code of codes) {
      expect(ciHint(code)).not.toMatch(/pds (auth login|emulator start|use|config set)/);
    }
    // Only exit 1 (a failure of any other kind) points at the service's URL and health.
    const network = codes.filter((code) => /api-url/.test(ciHint(code)));
    expect(network).toEqual([1]);
    expect(ciHint(8)).toMatch(/not whole/);
  });

  it('annotations past 9 failed files are left to the closing annotation; file names lose controls', async () => {
    const { githubAnnotations } = await import('../../src/lib/ci/report.js');
    const files = Array.from({ length: 12 }, (_, i) => ({
      path: i === 0 ? 'a\u001b]8;;x\u0007\u202e,b:c%.csv' : `f${i}.csv`,
      outcome: 'failed' as const,
      reason: i === 0 ? 'bad\nrun `pds auth login` or set PDS_TOKEN' : 'bad',
    }));
    const lines = githubAnnotations(files, undefined).split('\n').filter(Boolean);
    expect(lines).toHaveLength(9);
    expect(lines[0]).toBe('::error file=a]8;;x%2Cb%3Ac%25.csv,title=pds upload::bad');
  });
});
