// `pds emulator start --statements N --lines L`: the demo project's statements replaced by N
// processed ones of L lines each, for measuring a roll-up over many lines (npm run bench). Their
// payors, quarters and currencies cycle, so every grouping has several groups.
import type { StatementRecord } from '../store.js';

const PAYORS = ['Lumen Records', 'Fjord Records', 'Canopy Audio', 'Nimbus Sound', 'Arcadia Sound'];
const CURRENCIES = ['EUR', 'USD', 'GBP'];

export interface ManyStatements {
  count: number;
  lines: number;
}

export function manyStatements({ count, lines }: ManyStatements, firstId: number): StatementRecord[] {
  return Array.from({ length: count }, (_, i): StatementRecord => {
    const payor = PAYORS[i % PAYORS.length] as string;
    const quarter = Math.floor(i / PAYORS.length);
    const period = `${2020 + Math.floor(quarter / 4)}Q${(quarter % 4) + 1}`;
    return {
      id: firstId + i,
      file_name: `${payor.replace(/\s/g, '')}_${period}_statement.csv`,
      file_type: 'text/csv',
      file_size: 40_000 + i,
      statement_name: `${payor} ${period}`,
      statement_type: 'royalty',
      statement_category: 'recording',
      statement_producer: payor,
      processing_status: 'completed',
      upload_status: 'completed',
      currency_royalty: CURRENCIES[i % CURRENCIES.length] as string,
      created_at: '2025-01-02T09:00:00.000Z',
      processed_at: '2025-01-02T09:05:00.000Z',
      accounting_period: period,
      line_count: lines,
    };
  });
}
