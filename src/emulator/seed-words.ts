// The seed's vocabulary: the word lists the demo catalog's names, addresses and terms are drawn
// from. Data, not logic: ./seed.ts combines them deterministically, so changing an entry (or its
// position) changes the seeded catalog that tests assert on.
export const FIRST_NAMES = [
  'Nova', 'Ida', 'Mateo', 'Saoirse', 'Kai', 'Amara', 'Jonah', 'Leila', 'Rafael', 'Freya', 'Theo', 'Zara',
  'Elias', 'Noor', 'Callum', 'Marisol', 'Dmitri', 'Yuna', 'Oskar', 'Priya', 'Felix', 'Imani', 'Luca', 'Signe',
  'André', 'Maren', 'Tobias', 'Inès', 'Kwame', 'Astrid', 'Julian', 'Wren', 'Hugo', 'Esme', 'Malik', 'Solveig',
  'Ezra', 'Lucía', 'Nils', 'Celeste', 'Omar', 'Greta', 'Rowan', 'Aiko', 'Bastian', 'Leona', 'Silas', 'Mira',
] as const;
export const LAST_NAMES = [
  'Reyes', 'Marsh', 'Okafor', 'Lindqvist', 'Haddad', 'Moreau', 'Castillo', 'Brennan', 'Nakamura', 'Halvorsen',
  'Quinn', 'Abara', 'Delacroix', 'Whitlock', 'Bergström', 'Núñez', 'Fairweather', 'Kowalski', 'Achebe', 'Duarte',
  'Ellison', 'Vance', 'Takahashi', 'Oduya', 'Petrov', 'Sandoval', 'Holt', 'Varga', 'Osei', 'Lachance',
  'Mbeki', 'Strand', 'Iverson', 'Calloway', 'Ferreira', 'Novak', 'Ashby', 'Rinaldi', 'Sato', 'Kaur',
  'Donnelly', 'Amsel', 'Brandt', 'Cortez', 'Lund', 'Mercer', 'Yilmaz', 'Teague',
] as const;
export const BAND_WORDS_A = [
  'Velvet', 'Paper', 'Neon', 'Hollow', 'Golden', 'Static', 'Silver', 'Electric', 'Midnight', 'Northern',
  'Crystal', 'Wild', 'Quiet', 'Burning', 'Glass', 'Copper', 'Lonely', 'Painted', 'Restless', 'Distant',
  'Crimson', 'Broken', 'Sleeping', 'Summer', 'Winter', 'Electric Blue', 'Faded', 'Lucky', 'Marble', 'Young',
] as const;
export const BAND_WORDS_B = [
  'Harbors', 'Satellites', 'Lanterns', 'Foxes', 'Rivers', 'Pilots', 'Tigers', 'Parade', 'Ghosts', 'Wolves',
  'Sirens', 'Machines', 'Gardens', 'Echoes', 'Comets', 'Hearts', 'Ravens', 'Saints', 'Horses', 'Cities',
  'Mirrors', 'Kites', 'Oceans', 'Monarchs', 'Embers', 'Arrows', 'Daydreams', 'Sparrows', 'Giants', 'Orbits',
] as const;
export const TITLE_ADJ = [
  'Golden', 'Midnight', 'Silver', 'Paper', 'Electric', 'Hollow', 'Northern', 'Slow', 'Endless', 'Borrowed',
  'Broken', 'Quiet', 'Wild', 'Lonely', 'Neon', 'Bitter', 'Sweet', 'Restless', 'Open', 'Faded',
  'Burning', 'Secret', 'Gentle', 'Heavy', 'Last', 'Summer', 'Winter', 'Crimson', 'Velvet', 'Blue',
  'Stolen', 'Falling', 'Distant', 'Little', 'Strange', 'Perfect', 'Empty', 'Western', 'Sunday', 'Glass',
] as const;
export const TITLE_NOUN = [
  'Hour', 'Harbor', 'Satellites', 'Heart', 'Highway', 'Lights', 'River', 'Summer', 'Fire', 'Signal',
  'Garden', 'Rain', 'Skyline', 'Letters', 'Horizon', 'Motel', 'Tide', 'Ghost', 'Parade', 'Morning',
  'Weather', 'Shadows', 'Ocean', 'Static', 'Dreams', 'Echo', 'Stranger', 'Thunder', 'Daylight', 'Kingdom',
  'Roses', 'Avenue', 'Mirror', 'Season', 'Island', 'Fever', 'Wires', 'Window', 'Gravity', 'Lullaby',
] as const;
export const TITLE_VERB = [
  'Chasing', 'Holding', 'Dancing on', 'Waiting for', 'Leaving', 'Finding', 'Burning', 'Counting', 'Calling',
  'Crossing', 'Dreaming of', 'Running from', 'Talking to', 'Falling for', 'Singing to', 'Racing', 'Following',
  'Watching', 'Missing', 'Painting', 'Breaking', 'Building', 'Catching', 'Keeping', 'Losing',
] as const;
export const ENTITY_WORDS = [
  'Lumen', 'Northbound', 'Meridian', 'Halcyon', 'Blackbird', 'Cobalt', 'Saltwater', 'Ember', 'Juniper',
  'Tidewater', 'Lodestar', 'Foxglove', 'Granite', 'Harbourlight', 'Ironwood', 'Kestrel', 'Larkspur', 'Moonrise',
  'Nightjar', 'Orchard', 'Parallel', 'Quarry', 'Redwood', 'Silverline', 'Thornbury', 'Umber', 'Vesper',
  'Wildflower', 'Yellowhammer', 'Zephyr', 'Aurora', 'Bellwether', 'Cinder', 'Driftwood', 'Evergreen', 'Firefly',
  'Gossamer', 'Highline', 'Indigo', 'Jetstream', 'Keystone', 'Lantern', 'Mosaic', 'Nimbus', 'Obsidian',
  'Paper Moon', 'Quicksilver', 'Riverbend', 'Starling', 'Tandem', 'Undertow', 'Velvet Room', 'Westward',
  'Arcadia', 'Bluebell', 'Canopy', 'Delta Blue', 'Fjord', 'Greenroom', 'Hinterland',
] as const;

export type EntityKind = 'label' | 'publisher' | 'distributor' | 'division' | 'company';
/** The mix of entity kinds, repeated: labels dominate, loan-out companies sign as assignors. */
export const ENTITY_CYCLE: readonly EntityKind[] = [
  'label', 'label', 'publisher', 'label', 'distributor', 'company', 'label', 'publisher',
  'company', 'label', 'publisher', 'division', 'distributor', 'company', 'publisher', 'label',
];
export const ENTITY_SUFFIXES: Record<'label' | 'publisher' | 'distributor', readonly string[]> = {
  label: ['Records', 'Recordings', 'Music', 'Sound', 'Audio'],
  publisher: ['Music Publishing', 'Songs', 'Publishing', 'Music Rights'],
  distributor: ['Distribution', 'Digital', 'Music Distribution', 'Media'],
};
export const DIVISIONS = ['Nashville', 'Latin', 'Classics', 'Nordic', 'UK', 'Jazz', 'Soundtracks', 'Urban'] as const;
export const LEGAL_SUFFIXES = ['Ltd.', 'Inc.', 'LLC', 'GmbH', 'AB', 'S.L.'] as const;
export const ADDRESSES = [
  (n: number) => `${n} Music Row, Nashville, TN 37203, USA`,
  (n: number) => `${n} Sunset Blvd, Los Angeles, CA 90028, USA`,
  (n: number) => `${n} Broadway, New York, NY 10012, USA`,
  (n: number) => `${n} Camden High St, London NW1 7JE, UK`,
  (n: number) => `Torsgatan ${n}, 113 21 Stockholm, Sweden`,
  (n: number) => `Friedrichstraße ${n}, 10117 Berlin, Germany`,
  (n: number) => `${n} Rue de Rivoli, 75004 Paris, France`,
  (n: number) => `${n} King St W, Toronto, ON M5V 1J5, Canada`,
  (n: number) => `${n} Oxford St, Sydney NSW 2010, Australia`,
  (n: number) => `Calle de Alcalá ${n}, 28014 Madrid, Spain`,
  (n: number) => `Kalverstraat ${n}, 1012 NX Amsterdam, Netherlands`,
  (n: number) => `${n} Peachtree St NE, Atlanta, GA 30303, USA`,
] as const;
export const DEPARTMENTS = [
  'A&R', 'Business Affairs', 'Royalties', 'Legal', 'Licensing', 'Marketing', 'Finance', 'Sync', 'Rights Management',
] as const;
export const JOB_TITLES = ['Head of Business Affairs', 'General Counsel', 'Managing Director', 'VP, A&R', 'Director'] as const;
export const STORES = [
  'Spotify', 'Apple Music', 'Amazon Music', 'YouTube Music', 'Deezer', 'Tidal', 'Bandcamp', 'Physical (CD)', 'Physical (Vinyl)',
] as const;
export const PRODUCT_SOURCES = ['DDEX ERN feed', 'label catalogue', 'distributor report', 'manual entry'] as const;
export const CURRENCIES = ['USD', 'USD', 'USD', 'EUR', 'EUR', 'GBP', 'SEK', 'JPY', 'CAD', 'AUD'] as const;
export const TERRITORIES = [
  'World', 'North America', 'Europe', 'World excl. Japan', 'United Kingdom', 'Latin America', 'Scandinavia',
] as const;

export type ContractKind = 'recording' | 'songwriter' | 'distribution' | 'co-publishing' | 'administration' | 'licence';
export const CONTRACT_CYCLE: readonly ContractKind[] = [
  'recording', 'songwriter', 'distribution', 'co-publishing', 'administration', 'licence',
];
export const CONTRACT_TITLES: Record<ContractKind, string> = {
  recording: 'Recording Agreement',
  songwriter: 'Exclusive Songwriter Agreement',
  distribution: 'Distribution Agreement',
  'co-publishing': 'Co-Publishing Agreement',
  administration: 'Publishing Administration Agreement',
  licence: 'Master Licence Agreement',
};

export const STATEMENT_TYPES = {
  recording: ['royalty', 'royalty', 'distribution', 'neighbouring rights'],
  publishing: ['mechanical', 'performance', 'royalty', 'sync'],
} as const;
export const SUBTYPES = ['streaming', 'download', 'physical', 'broadcast', 'sync', 'mixed'] as const;
