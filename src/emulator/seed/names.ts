import {
  FIRST_NAMES,
  LAST_NAMES,
  BAND_WORDS_A,
  BAND_WORDS_B,
  TITLE_ADJ,
  TITLE_NOUN,
  TITLE_VERB,
  LEGAL_SUFFIXES,
} from '../seed-words.js';
import { type Rng, NameSpace, product2, initials } from './basics.js';

export interface PersonNames {
  solo: NameSpace;
  bands: NameSpace;
  people: NameSpace;
  staff: NameSpace;
}

export function personNames(offset: number): PersonNames {
  const fullName = product2(FIRST_NAMES, LAST_NAMES, (f, l) => `${f} ${l}`);
  const people = (extra: number) => new NameSpace(FIRST_NAMES.length * LAST_NAMES.length, fullName, offset + extra);
  return {
    solo: people(0),
    bands: new NameSpace(
      BAND_WORDS_A.length * BAND_WORDS_B.length,
      product2(BAND_WORDS_A, BAND_WORDS_B, (a, b) => `The ${a} ${b}`),
      offset,
    ),
    people: people(1153),
    staff: people(577),
  };
}

/** Song titles from three patterns ("Golden Hour", "Chasing the Tide", "Harbor Lights"). */
export function titleSpace(offset: number): NameSpace {
  const adjNoun = TITLE_ADJ.length * TITLE_NOUN.length;
  const verbNoun = TITLE_VERB.length * TITLE_NOUN.length;
  const nounNoun = TITLE_NOUN.length * TITLE_NOUN.length;
  const first = product2(TITLE_ADJ, TITLE_NOUN, (a, n) => `${a} ${n}`);
  const second = product2(TITLE_VERB, TITLE_NOUN, (v, n) => `${v} the ${n}`);
  const third = product2(TITLE_NOUN, TITLE_NOUN, (a, b) => `${a} ${b}`);
  return new NameSpace(
    adjNoun + verbNoun + nounNoun,
    (k) => (k < adjNoun ? first(k) : k < adjNoun + verbNoun ? second(k - adjNoun) : third(k - adjNoun - verbNoun)),
    offset,
  );
}

/** Variants under which a duplicate of a name was extracted before being merged into its root. */
export function personVariant(name: string, variant: number): string {
  const parts = name.split(' ');
  const first = parts[0] ?? name;
  const rest = parts.slice(1).join(' ');
  if (name.startsWith('The '))
    return [name.slice(4), name.toUpperCase(), `${name.slice(4)} (Band)`][variant % 3] ?? name;
  return [`${rest}, ${first}`, `${first.charAt(0)}. ${rest}`, name.toUpperCase()][variant % 3] ?? name;
}

export function entityVariant(name: string, variant: number, rng: Rng): string {
  return (
    [`${name} ${rng.pick(LEGAL_SUFFIXES)}`, name.toUpperCase(), `${name} (${initials(name)})`][variant % 3] ?? name
  );
}
