// `pds emulator start`: the local service, for demos, tests and working offline. The definitions: plain data, no code.
import { verb, type NounDef } from '../../lib/verbs/verb.js';

/** What the examples test cannot wait for: the emulator's own tests start and stop it. */
export const SERVES = 'a server left running (the emulator tests start and stop it)';

/** The noun: what `pds emulator --help` says of it (index.ts adds its verb). */
export const noun = {
  name: 'emulator',
  description: 'run a local emulator of the service (demo tokens, seeded data)',
  examples: [['pds emulator start --quiet &', undefined, SERVES]],
} satisfies Omit<NounDef, 'verbs'>;

const whole = (min: number, help: string, max?: number) =>
  ({ type: 'number', value: 'n', integer: true, min, help, ...(max === undefined ? {} : { max }) }) as const;

export const start = verb({
  name: 'start',
  dryRun: { none: 'it starts a server (writing only its --data file)' },
  description: 'serve the emulator until Ctrl-C; the first line on stdout gives its URL',
  flags: {
    port: { ...whole(0, 'port to listen on; 0 picks a free one (default 4010)', 65_535), value: 'port' },
    host: { type: 'string', value: 'host', nonEmpty: true, help: 'address to listen on (default 127.0.0.1)' },
    data: {
      type: 'string',
      value: 'file',
      nonEmpty: true,
      help: 'keep the state in this JSON file across restarts (default: in memory)',
    },
    scale: whole(1, 'multiply the size of the seeded catalog (default 1)', 1000),
    statements: whole(1, "replace the demo project's statements by this many processed ones (with --lines)", 100_000),
    lines: whole(1, 'lines of each of those statements (with --statements; default 2500)', 1_000_000),
    exportSize: {
      type: 'string',
      value: 'size',
      help: 'serve every lines export as its rows repeated to about this size, e.g. 300M (a large export)',
    },
    latency: { ...whole(0, 'delay every response by this many milliseconds (default 0)'), value: 'ms' },
    failRate: {
      type: 'number',
      value: 'share',
      min: 0,
      max: 1,
      help: 'answer this share of requests with 503 (default 0)',
    },
    rateLimit: whole(0, 'requests per token per minute (or per --rate-window); 0 is unlimited (default 0)'),
    rateWindow: {
      type: 'number',
      value: 'duration',
      min: 0.05,
      max: 3600,
      seconds: true,
      help: "the rate limit's window (default 60s; e.g. 500ms: a minute's pacing in half a second)",
    },
    processingMs: { ...whole(0, 'duration of one processing step of an upload (default 1000)'), value: 'ms' },
    seed: whole(0, "seed of the fault injection's random choices (default 1)"),
    urlTtl: { ...whole(0, 'lifetime of the signed URLs of downloads (default 300)'), value: 'seconds', seconds: true },
    tokenTtl: {
      ...whole(1, 'lifetime of the access tokens of a browser sign-in (default 3600)'),
      value: 'seconds',
      seconds: true,
    },
    drift: {
      type: 'boolean',
      help: 'answer in the drifted forms of a deployed service: catalog lists paged, search keyed by type, statement processes as extraction_* (implied by --flavor deployed)',
    },
    flavor: {
      type: 'choice',
      value: 'f',
      choices: ['deployed', 'current', 'seed'],
      help: "deployed: the service as deployed (numeric ids, paged lists, contracts by file name…); current: the seed's forms with the deployed service's additions (signed-URL uploads, tags, knowledge…); seed: the spec form only (default deployed)",
    },
    pauseUploads: {
      type: 'boolean',
      help: 'new uploads go paused (a processing quota reached) until retried without this',
    },
  },
  // It reads no profile: a --profile or PDS_PROFILE of the shell does not stop it.
  allowsNewProfile: true,
  notes:
    'The global -q/--quiet prints only the line `pds emulator listening on <url>` (scripts read the address from it): no tokens, projects or request log.',
  examples: [
    ['pds emulator start --quiet &', 'on http://127.0.0.1:4010', SERVES],
    ['pds emulator start --port 0 --latency 200 --fail-rate 0.1', 'a slow, flaky service', SERVES],
    ['pds emulator start --drift --flavor seed', 'drifted answers; no signed-URL uploads', SERVES],
  ],
});
