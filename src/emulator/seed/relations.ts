import type { EntityRecord, RelationRecord } from '../store.js';
import { DEPARTMENTS } from '../seed-words.js';
import { SEED_NOW, DAY, pad, iso, isoCapped, slug, phone, timeline } from './basics.js';
import { personVariant } from './names.js';
import type { ProjectSeeding } from './phases.js';

export function buildRelations(p: ProjectSeeding, entities: EntityRecord[]): RelationRecord[] {
  const { ids, from, names, size } = p;
  const stream = p.stream;
  const relationRng = stream('relation');
  let nextRelation = ids.relation;
  const relations: RelationRecord[] = [];
  const companies = entities.filter((e) => !e.merged_into);
  const relationWhen = timeline(size.relations, from, SEED_NOW, relationRng);
  for (let i = 0; i < size.relations; i++) {
    const rng = relationRng;
    const name = names.staff.name(i);
    const company = rng.pick(companies);
    const [first = name, ...rest] = name.split(' ');
    const domain = `${slug(company.name.replace(/ (Music LLC|Songs Ltd|Productions Ltd)$/, ''))}.com`;
    const created = relationWhen(i);
    const relation: RelationRecord = {
      id: `rel_${pad(nextRelation++, 5)}`,
      name,
      email: `${slug(first)}.${slug(rest.join(''))}@${domain}`,
      phone: phone(rng),
      department: rng.pick(DEPARTMENTS),
      created_at: iso(created),
      updated_at: isoCapped(created + rng.int(0, 150) * DAY),
    };
    relations.push(relation);
    if (i % 6 === 2) {
      const dupCreated = created + rng.int(3, 100) * DAY;
      relations.push({
        id: `rel_${pad(nextRelation++, 5)}`,
        name: personVariant(name, i),
        email: relation.email,
        phone: phone(rng),
        department: relation.department,
        created_at: isoCapped(dupCreated),
        updated_at: isoCapped(dupCreated),
        merged_into: relation.id,
        merged_at: isoCapped(dupCreated + rng.int(1, 20) * DAY),
      });
    }
  }
  return relations;
}

/**
 * Compositions and their recordings (built together: a composition's products are those of its
 * studio recording). Composition c is performed by artist c and written by writer c (plus
 * co-writers); recordings past the first round are live, remix, acoustic… versions.
 */
