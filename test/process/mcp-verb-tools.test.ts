// The MCP tools that mirror a CLI verb are made from it (verb-tools.ts), and the edges of their
// adapters: an empty list, the last page, a cursor passed alone, a 404 that names the id, a verb's
// exit code that is an answer. Run against the built `pds mcp` and the emulator; counts are read
// from the emulator, not written here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import type { AnyVerb, NounDef } from '../../src/lib/verbs/verb.js';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { between, connectMcp, cursorOf, data, type Connected, type ToolResult } from '../helpers/mcp.js';
import { runPds, signedInEnv } from '../helpers/process.js';

// The deployed flavor pages with its envelope (a total); the `current` one sends plain arrays.
const emulator = sharedEmulator({ flavor: 'deployed' });
const plain = sharedEmulator({ flavor: 'current' });

/**
 * Tools that mirror a verb yet run on the verb's own pieces, and why (the MCP section of
 * docs/architecture.md says the same). A tool added here must say what a verb cannot give it.
 */
const OWN_RUN: Record<string, string> = {
  upload_contract: "the verb's run is a batch of paths it opens itself; the tool sends one file the roots check opened",
  upload_statement:
    "the verb's run is a batch of paths it opens itself; the tool sends one file the roots check opened",
  statement_lines:
    'the verb streams the CSV unbounded to a file or stdout; the tool holds at most 16 MiB, a part a call',
  statements_totals: 'the verb says the statements not processed yet on stderr; the tool counts them in its data',
  statements_check: "the verb's JSON is the findings alone; the tool adds ok and the count checked",
  sandbox_exec: 'its progress counts from the moment the commands are sent, a moment inside the verb’s run',
};

const singular = (noun: string): string => noun.replace(/ies$/, 'y').replace(/s$/, '');

/** Every CLI verb, by the tool names that would mirror it: `list_artists` → `artists ls`. */
function mirroredVerbs(): Map<string, string> {
  const names = new Map<string, string>();
  const add = (noun: string | undefined, verb: AnyVerb) => {
    for (const word of [verb.name, ...(verb.aliases ?? [])]) {
      const command = noun ? `${noun} ${verb.name}` : verb.name;
      const candidates = noun
        ? [`${word}_${noun}`, `${word}_${singular(noun)}`, `${noun}_${word}`, `${singular(noun)}_${word}`]
        : [word];
      for (const name of candidates) names.set(name, command);
    }
  };
  for (const command of COMMANDS) {
    if ('verbs' in command) for (const verb of (command as NounDef).verbs) add(command.name, verb);
    else add(undefined, command);
  }
  return names;
}

describe('pds mcp: the tools that mirror a verb', () => {
  it('are made from that verb (their marker names it), but for the few that say why not', async () => {
    const listed = await runPds(['mcp', 'tools', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const tools = JSON.parse(listed.stdout) as { tool: string; verb: string | null }[];
    const verbs = mirroredVerbs();
    const known = new Set(verbs.values());
    for (const { tool, verb } of tools) {
      if (verb !== null) expect(known, `${tool} is made from pds ${verb}, which is no verb`).toContain(verb);
      const mirrored = verbs.get(tool);
      if (mirrored === undefined) continue;
      if (tool in OWN_RUN) expect(verb, `${tool} is made from its verb now: take it out of OWN_RUN`).toBeNull();
      else expect(verb, `${tool} mirrors pds ${mirrored}: make it with verbTool`).toBe(mirrored);
    }
    // Each exception is a tool that exists and mirrors a verb.
    for (const tool of Object.keys(OWN_RUN)) {
      expect(tools.map((t) => t.tool)).toContain(tool);
      expect(verbs.has(tool), tool).toBe(true);
    }
    // The ones made from verbs today: a tool that goes back to being written by hand fails above.
    expect(tools.filter((t) => t.verb !== null).length).toBeGreaterThanOrEqual(28);
  });
});

describe('pds mcp: the adapters of the tools made from verbs', () => {
  let server: Connected;
  let one: Connected;
  beforeAll(async () => {
    [server, one] = await Promise.all([
      connectMcp(emulator, ['--allow-writes']),
      connectMcp(emulator, ['--max-results', '1']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), one?.close()]);
  });

  const call = async (client: Connected, name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.client.callTool({ name, arguments: args })) as ToolResult;
    const text = result.content.map((part) => part.text ?? '').join('\n');
    return { text, isError: result.isError === true, structured: result.structuredContent ?? {} };
  };

  it('a list: past its end is empty and the last page; its last page says so; a cursor alone continues it', async () => {
    const first = await call(server, 'list_artists', { perPage: 3 });
    const total = first.structured.total as number;
    expect(total).toBeGreaterThan(6);
    expect(first.text).toMatch(new RegExp(`^artists 1-3 of ${total} \\(page 1, 3 per page\\)\\n`));

    const next = await call(server, 'list_artists', { cursor: cursorOf(first.text) });
    const second = await call(server, 'list_artists', { perPage: 3, page: 2 });
    expect(next.text).toMatch(new RegExp(`^artists 4-6 of ${total} \\(page 2, 3 per page\\)\\n`));
    expect(next.structured.items).toEqual(second.structured.items);

    const lastPage = Math.ceil(total / 3);
    const last = await call(server, 'list_artists', { perPage: 3, page: lastPage });
    const from = (lastPage - 1) * 3 + 1;
    expect(last.text).toMatch(
      new RegExp(`^artists ${from}-${total} of ${total} \\(page ${lastPage}, 3 per page\\)\\n`),
    );
    expect(last.text.endsWith('\nlast page')).toBe(true);
    expect(last.structured).toMatchObject({ next_cursor: null, total });
    expect((last.structured.items as unknown[]).length).toBe(total - from + 1);

    const past = await call(server, 'list_artists', { perPage: 3, page: lastPage + 1 });
    expect(past.isError).toBe(false);
    expect(past.text).toMatch(new RegExp(`^no artists of ${total} \\(page ${lastPage + 1}, 3 per page\\)\\n`));
    expect(data(past.text)).toEqual([]);
    expect(past.structured).toEqual({ items: [], next_cursor: null, total });
  });

  it('a list whose service sends no total: a full page has a cursor, the page past the end is the last', async () => {
    const cli = await runPds(['artists', 'ls', '--all', '--json'], { env: signedInEnv(plain.url) });
    const count = (JSON.parse(cli.stdout) as unknown[]).length;
    const perPage = count - 1;
    const client = await connectMcp(plain);
    try {
      const first = await call(client, 'list_artists', { perPage });
      expect(first.text.startsWith(`artists 1-${perPage} (page 1, ${perPage} per page)\n`)).toBe(true);
      expect(first.structured).not.toHaveProperty('total');
      const second = await call(client, 'list_artists', { cursor: cursorOf(first.text) });
      expect(second.text.startsWith(`artists ${count}-${count} (page 2, ${perPage} per page)\n`)).toBe(true);
      expect(second.text.endsWith('\nlast page')).toBe(true);
      expect(second.structured.next_cursor).toBeNull();
    } finally {
      await client.close();
    }
  });

  it('perPage past --max-results is refused before any request', async () => {
    const over = await call(one, 'list_artists', { perPage: 2 });
    expect(over).toMatchObject({
      isError: true,
      text: "error: perPage: at most 1 records per call (the server's --max-results)",
    });
  });

  it('list_projects and search: a page of --max-results, the cursor alone to the next, an empty search', async () => {
    const cli = await runPds(['projects', 'ls', '--json'], { env: signedInEnv(emulator.url) });
    const projects = JSON.parse(cli.stdout) as { id: string }[];
    expect(projects.length).toBeGreaterThan(1);
    const first = await call(one, 'list_projects');
    expect(first.text.startsWith(`projects 1-1 of ${projects.length}\n`)).toBe(true);
    const second = await call(one, 'list_projects', { cursor: cursorOf(first.text) });
    expect(second.text.startsWith(`projects 2-2 of ${projects.length}\n`)).toBe(true);
    expect(data<{ id: string }[]>(second.text).map((p) => p.id)).toEqual([projects[1]?.id]);

    const none = await call(server, 'search', { query: 'zzzz-nothing-matches-this' });
    expect(none.isError).toBe(false);
    expect(none.text.startsWith('no results (0 in all)\n')).toBe(true);
    expect(none.text.endsWith('\nlast page')).toBe(true);
    expect(none.structured).toEqual({ items: [], next_cursor: null, total: 0 });
  });

  it("a 404 names the kind, the id and the project; the service's own message is under it", async () => {
    const artist = await call(server, 'get_artist', { id: 'art-none-41' });
    expect(artist.isError).toBe(true);
    expect(artist.text.startsWith('error: the service answered 404\n')).toBe(true);
    const [named, service] = between(artist.text).inside.split('\n');
    expect(named).toBe(`artist art-none-41 not found in project ${DEMO_PROJECT}`);
    // The service's message, not the CLI's (which names the project by its name).
    expect(service?.trim()).not.toBe('');
    expect(service).not.toContain('not found in project');

    const upload = await call(server, 'contract_status', { stagingId: ' 987654 ' });
    expect(between(upload.text).inside.split('\n')[0]).toBe(
      `contract upload 987654 not found in project ${DEMO_PROJECT}`,
    );

    const unknown = '00000000-0000-4000-8000-000000000041';
    const project = await call(server, 'get_project', { projectId: unknown });
    expect(between(project.text).inside.split('\n')[0]).toBe(`project ${unknown} not found`);
  });
});
