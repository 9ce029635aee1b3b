// `pds auth list`: every profile on disk, what it signs in to and with, the current one marked.
import type { Context } from '../../lib/context.js';
import { DEFAULT_API_URL } from '../../lib/config/settings.js';
import { readConfig } from '../../lib/config/file.js';
import type { Column } from '../../lib/output/view.js';
import type { list } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof list>;

interface ProfileRow {
  current: boolean;
  profile: string;
  api_url: string;
  credential: 'oauth' | 'token' | null;
  project: string | null;
}

const FIELDS = ['current', 'profile', 'api_url', 'credential', 'project'] as const;

// The profile's name (typed after --profile) and the project id are copied: never cut.
const columns: Column<ProfileRow>[] = [
  { header: '', value: (row) => (row.current ? '*' : '') },
  { header: 'profile', value: (row) => row.profile, fit: 'copy' },
  { header: 'api url', value: (row) => row.api_url },
  { header: 'credential', value: (row) => row.credential ?? 'none' },
  { header: 'project', value: (row) => row.project ?? '', fit: 'copy' },
];

export async function run(_opts: Options, ctx: Context): Promise<void> {
  const { profiles } = readConfig(ctx.env);
  const rows: ProfileRow[] = Object.entries(profiles).map(([name, stored]) => ({
    current: name === ctx.settings.profile,
    profile: name,
    api_url: stored['api-url'] ?? DEFAULT_API_URL,
    credential: stored.oauth ? 'oauth' : stored.token !== undefined ? 'token' : null,
    project: stored.project ?? null,
  }));
  async function* single() {
    yield { items: rows, page: 1, perPage: rows.length, total: rows.length };
  }
  await ctx.output.list(single(), { columns, id: (row) => row.profile, noun: 'profiles', all: true, fields: FIELDS });
}
