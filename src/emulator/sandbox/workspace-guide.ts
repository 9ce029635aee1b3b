// The workspace's stats.yaml and AGENTS.md: what is there, counted, and how to look through it.
import type { Include as ContractInclude } from '../vocabulary.js';
import type { ProjectData, ProjectRecord } from '../store.js';
import type { TreeBuilder } from './workspace-tree.js';

/** stats.yaml and AGENTS.md: the counts of each kind, merged duplicates left out. */
export function addStats(
  tree: TreeBuilder,
  project: ProjectRecord,
  data: ProjectData,
  /** How many records of each mergeable kind are not merged into another. */
  roots: { entities: number; relations: number; artists: number; writers: number },
  byStatus: Map<string, number>,
  extractedCounts: Map<ContractInclude, number>,
): void {
  const counts = {
    contracts: data.contracts.length,
    statements: data.statements.length,
    entities: roots.entities,
    relations: roots.relations,
    artists: roots.artists,
    writers: roots.writers,
    recordings: data.recordings.length,
    compositions: data.compositions.length,
  };
  const mergedCounts = {
    entities: data.entities.length - roots.entities,
    relations: data.relations.length - roots.relations,
    artists: data.artists.length - roots.artists,
    writers: data.writers.length - roots.writers,
  };
  tree.file('/stats.yaml', {
    yaml: {
      project: { id: project.id, name: project.name },
      counts,
      merged_duplicates: mergedCounts,
      statements_by_processing_status: Object.fromEntries([...byStatus].sort(([a], [b]) => a.localeCompare(b))),
      contracts_with_extracted: Object.fromEntries([...extractedCounts].sort(([a], [b]) => a.localeCompare(b))),
    },
  });
  tree.file('/AGENTS.md', { text: agentsGuide(project, counts, mergedCounts) });
}

function agentsGuide(project: ProjectRecord, counts: Record<string, number>, merged: Record<string, number>): string {
  const countLines = Object.entries(counts)
    .map(([name, n]) => `| ${name} | ${n} | ${merged[name] ?? 0} |`)
    .join('\n');
  return `# Project workspace: ${project.name}

The structured data of project \`${project.id}\`, as files. Commands run with bash (a sandboxed
interpreter: no network, no host files) and start in \`/\`, the workspace root; \`/bin\`, \`/usr\`,
\`/dev\`, \`/proc\` and \`/tmp\` belong to the shell. Changes you make, in \`/tmp\` or anywhere, last for
the commands of one exec request only. Each request has a time limit: on a large catalog, search
one directory (\`grep -l x artists/*.yaml\`) rather than the whole tree.

## Counts

Root records (as the API lists them) and the duplicates merged into them. Details: \`stats.yaml\`.

| resource | records | merged duplicates |
|---|---|---|
${countLines}

## Layout

| path | content |
|---|---|
| \`stats.yaml\` | counts per resource, statements per processing status, contracts per extracted kind |
| \`contracts/contract_<id>/uploaded.yaml\` | the contract: id, name, dates, parties (entity and role), which data was extracted |
| \`contracts/contract_<id>/extracted/<kind>.yaml\` | extracted rows, one file per kind present: royalties, splits, costs, dates, … |
| \`entities/entity_<id>/metadata.yaml\` | a company or label: contact fields, the contracts it is party to and its role, merged ids |
| \`entities/entity_<id>/merged.yaml\` | the full records of the duplicates merged into it (only when there are some) |
| \`artists/artist_<id>.yaml\`, \`writers/writer_<id>.yaml\` | name, and the ids and names merged into it |
| \`relations/relation_<id>.yaml\` | a contact person: email, phone, department, merged duplicates |
| \`recordings/recording_<id>.yaml\` | a sound recording: duration, artists, products (UPC, release date, store) |
| \`compositions/composition_<id>.yaml\` | a musical work: writers, artists, products |
| \`statements/statement_<id>/metadata.yaml\` | a royalty statement: file, type, producer, currencies, processing status |

Only root records have files; a merged duplicate appears inside its root's file. Every \`<id>\` is the
record's id in the API, as are the ids inside the files (\`entity_id\`, \`contract_id\`, \`merged\`, …):
\`artists/artist_<id>.yaml\` is the artist \`GET /v1/artists/<id>\` answers with.

## Exploring

\`\`\`bash
cat stats.yaml
ls contracts | head
grep -h 'type:' contracts/*/extracted/royalties.yaml | sort | uniq -c | sort -rn
grep -l 'role: assignee' entities/*/metadata.yaml | wc -l
yq -N '.name' artists/*.yaml | sort | head
yq ea '[.] | length' artists/*.yaml
yq -o json '.' contracts/contract_*/uploaded.yaml | jq -s 'map({id, name, parties: (.parties | length)})'
find entities -name merged.yaml
\`\`\`

\`grep\`, \`find\`, \`jq\`, \`yq\`, \`awk\`, \`sed\`, \`sort\`, \`uniq\`, \`wc\` and most coreutils are available; there is no \`sqlite3\`, \`python\` or \`curl\`.
\`yq\` reads several files as mikefarah's yq does: each file on its own, a \`---\` line between their
YAML (\`-N\` leaves it out); \`yq ea\` (eval-all) evaluates the expression once over every document.
`;
}
