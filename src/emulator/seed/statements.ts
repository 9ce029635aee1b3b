import { generatedPdf } from '../generated-files.js';
import type { EntityRecord, StatementRecord } from '../store.js';
import { CURRENCIES, STATEMENT_TYPES, SUBTYPES } from '../seed-words.js';
import { SEED_NOW, DAY, thousands, type Rng, iso, isoCapped, timeline } from './basics.js';
import { signer } from './contracts.js';
import type { ProjectSeed } from './basics.js';

interface Issuer {
  entity: EntityRecord;
  category: keyof typeof STATEMENT_TYPES;
}

export function buildStatements(seed: ProjectSeed, firstId: number, rng: Rng, issuers: Issuer[]): StatementRecord[] {
  const statements: StatementRecord[] = [];
  const when = timeline(seed.size.statements, seed.created + 7 * DAY, SEED_NOW, rng);
  for (let i = 0; i < seed.size.statements; i++) {
    const created = when(i);
    const issuer = signer(issuers, i);
    const createdAt = iso(created);
    const year = Number(createdAt.slice(0, 4));
    const half = Number(createdAt.slice(5, 7)) <= 6 ? 2 : 1;
    const periodYear = half === 2 ? year - 1 : year;
    const period = `${periodYear}-H${half}`;
    const issuerName = issuer?.entity.name ?? 'Unknown Issuer';
    const id = firstId + i;
    const fileName = `${issuerName.replace(/[^\p{L}\p{N}]+/gu, '')}_${period}_statement.pdf`;
    // Still drawn, so the draws after it stay where they were; the size is the served file's.
    rng.int(60_000, 4_500_000);
    // Every sixth statement is still waiting for processing: only the file facts are known.
    if (i % 6 === 5 || !issuer) {
      statements.push({
        id,
        file_name: fileName,
        file_type: 'application/pdf',
        file_size: generatedPdf(fileName).length,
        created_at: createdAt,
        upload_status: 'completed',
      });
      continue;
    }
    const category = issuer.category;
    const type = rng.pick(STATEMENT_TYPES[category]);
    const subtype = rng.pick(SUBTYPES);
    const currencyTransaction = rng.pick(CURRENCIES);
    const currencyRoyalty =
      currencyTransaction === 'EUR' || currencyTransaction === 'GBP' ? currencyTransaction : 'USD';
    const hasSummary = rng.chance(0.7);
    const processed = created + rng.int(2, 40) * 60_000;
    const approval = rng.next();
    // Spelled out rather than spread from the common fields: V8 builds large spread-then-extended
    // literals on a slow path, which cost most of a second at --scale 100.
    const statementName = `${issuerName} — ${type.charAt(0).toUpperCase()}${type.slice(1)} Statement ${period}`;
    statements.push({
      id,
      file_name: fileName,
      file_type: 'application/pdf',
      // The size of what its download serves (storage.ts: a PDF titled with its name).
      file_size: generatedPdf(statementName).length,
      created_at: createdAt,
      upload_status: 'completed',
      statement_name: statementName,
      statement_type: type,
      statement_category: category,
      statement_producer: issuerName,
      processing_status: 'completed',
      approval_status: approval < 0.75 ? 'approved' : approval < 0.95 ? 'pending' : 'rejected',
      has_revenues: rng.chance(0.95),
      has_costs: rng.chance(0.35),
      has_summary: hasSummary,
      currency_transaction: currencyTransaction,
      currency_royalty: currencyRoyalty,
      entity_id: issuer.entity.internal_uuid,
      processed_at: iso(processed),
      statement_desc:
        `${half === 1 ? 'January–June' : 'July–December'} ${periodYear} ${subtype} ${type} statement from ${issuerName}: ` +
        `${thousands(rng.int(40, 9000))} lines across ${rng.int(1, 60)} territories.`,
      statement_subtype: subtype,
      statement_version: rng.chance(0.8) ? 'v1' : rng.pick(['v2', 'v3']),
      has_summary_lines: hasSummary && rng.chance(0.8),
      modified_at: isoCapped(processed + rng.int(0, 20) * DAY),
    });
  }
  return statements;
}
