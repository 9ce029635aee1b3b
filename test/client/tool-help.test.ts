// A tool's inputs that are a verb's flags say what the flag's definition says (its toolHelp where
// the command line's words name other flags): the help is declared once, beside the flag.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { TOOLS } from '../../src/commands/mcp/tools.js';
import { RESOURCE_FLAGS } from '../../src/commands/catalog/resources.js';
import { SEARCH_FLAGS } from '../../src/commands/search/definitions.js';
import {
  CHECK_FLAGS,
  LINES_FLAGS,
  REPORT_FLAGS,
  SELECT_FLAGS,
  TOP_FLAG,
  TOTALS_FLAGS,
} from '../../src/commands/statements/definitions.js';

/** What the tool tells an agent of one of its inputs. */
function described(tool: string, input: string): string | undefined {
  const schema = TOOLS.find((t) => t.name === tool)?.input[input];
  if (!schema) throw new Error(`${tool} has no input ${input}`);
  return (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { description?: string }).description;
}

describe("the tools' flag inputs, described by the flags' definitions", () => {
  it('the roll-up tools filter and rank with the statements verbs’ flags', () => {
    for (const tool of ['statements_totals', 'statements_lines_rollup', 'statements_check'])
      for (const [key, flag] of Object.entries(SELECT_FLAGS)) expect(described(tool, key)).toBe(flag.help);
    expect(described('statements_totals', 'top')).toBe(TOP_FLAG.top.toolHelp);
    expect(described('statements_totals', 'by')).toBe(TOTALS_FLAGS.by.help);
    expect(described('statements_totals', 'sort')).toBe(TOTALS_FLAGS.sort.toolHelp);
    expect(described('statements_lines_rollup', 'by')).toBe(LINES_FLAGS.by.help);
    expect(described('statements_lines_rollup', 'sort')).toBe(LINES_FLAGS.sort.help);
    expect(described('statements_check', 'gaps')).toBe(CHECK_FLAGS.gaps.toolHelp);
    for (const tool of ['statements_totals', 'statements_lines_rollup'])
      for (const key of ['compare', 'columns', 'to'] as const)
        expect(described(tool, key)).toBe(REPORT_FLAGS[key].toolHelp);
  });

  it('the catalog and search tools take the resource and search flags as the CLI declares them', () => {
    expect(described('list_contracts', 'include')).toBe(RESOURCE_FLAGS.include.help);
    expect(described('get_contract', 'include')).toBe(RESOURCE_FLAGS.include.help);
    expect(described('list_entities', 'roles')).toBe(RESOURCE_FLAGS.roles.help);
    expect(described('list_artists', 'merged')).toBe(RESOURCE_FLAGS.merged.toolHelp);
    expect(described('list_recordings', 'products')).toBe(RESOURCE_FLAGS.products.help);
    expect(described('search', 'type')).toBe(SEARCH_FLAGS.type.toolHelp);
    expect(described('search', 'limit')).toBe(SEARCH_FLAGS.limit.toolHelp);
  });
});
