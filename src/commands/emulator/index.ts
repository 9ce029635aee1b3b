// `pds emulator start`: the local service, for demos, tests and working offline.
import type { Command } from 'commander';
import { lazyAction, type Runner } from '../../lib/command.js';

export function registerEmulator(program: Command, runner: Runner): void {
  const emulator = program.command('emulator').description('run a local emulator of the service (demo tokens, seeded data)');
  emulator
    .command('start')
    .description('serve the emulator until Ctrl-C; the first line on stdout gives its URL')
    .option('--port <port>', 'port to listen on; 0 picks a free one (default 4010)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--data <file>', 'keep the state in this JSON file across restarts (default: in memory)')
    .option('--scale <n>', 'multiply the size of the seeded catalog (default 1)')
    .option('--latency <ms>', 'delay every response by this many milliseconds (default 0)')
    .option('--fail-rate <share>', 'answer this share of requests, 0 to 1, with 503 (default 0)')
    .option('--rate-limit <n>', 'requests per token per minute; 0 is unlimited (default 0)')
    .option('--processing-ms <ms>', 'duration of one processing step of an upload (default 1000)')
    .option('--seed <n>', 'seed of the fault injection\'s random choices (default 1)')
    .option('--url-ttl <seconds>', 'lifetime of the signed URLs of downloads (default 300)')
    .option('--token-ttl <seconds>', 'lifetime of the access tokens of a browser sign-in (default 3600)')
    .option('--drift', 'answer in the drifted forms of a deployed service: catalog lists paged, search keyed by type, statement processes as extraction_*')
    .option('--flavor <f>', 'current: the deployed service (signed-URL uploads, tags, …) and the seed\'s forms; seed: SPEC.md only (default current)')
    .option('--pause-uploads', 'new uploads go paused (a processing quota reached) until retried with this off')
    // The global -q/--quiet is read for this: declared here too so that the help shows its meaning.
    .option('--quiet', 'no request log on stderr')
    .action(lazyAction(runner, () => import('./start.js')));
}
