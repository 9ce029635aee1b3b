// The floor of `pds artists ls --all --json` (and `--format ndjson|csv`) in npm run bench: walks
// the pages of a list with node:http, 8 requests in flight over keep-alive connections, and prints
// the records in page order as pds prints them: one indented JSON array, a JSON record a line, or
// CSV (RFC 4180, a header of an artist's documented fields then the first page's other keys, `'`
// before a cell that starts like a formula).
// It stops at the first page shorter than a full one.
//
// With --checked it also does, in the plainest code, the work pds does for every page of artists:
// each request gets its own timeout, each record is checked for what pds needs of it (an object
// with an id, a string or a whole number), and a record the first page or one of
// the last four repeats is dropped (a page of nothing but repeats stops the walk). The bench
// compares pds with both: what the checks cost, and what pds's layers cost beyond them.
//
// node walk.js <path> [json|ndjson|csv] [perPage] [concurrency] [--checked]
import http from 'node:http';

const checked = process.argv.includes('--checked');
const [path = '/v1/artists', format = 'json', perPage = 100, concurrency = 8] = process.argv
  .slice(2)
  .filter((arg) => arg !== '--checked')
  .map((a, i) => (i < 2 ? a : Number(a)));
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const base = `${process.env.PDS_API_URL}${path}?projectId=${process.env.PDS_PROJECT}&perPage=${perPage}&page=`;
const headers = { authorization: `Bearer ${process.env.PDS_TOKEN}` };

const fetchPage = (page) =>
  new Promise((resolve, reject) => {
    const req = http
      .get(`${base}${page}`, { agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          if (timer) clearTimeout(timer);
          if (res.statusCode !== 200) reject(new Error(`page ${page}: HTTP ${res.statusCode}`));
          else {
            const body = JSON.parse(Buffer.concat(chunks).toString());
            if (checked && !isPage(body)) reject(new Error(`page ${page}: unexpected response`));
            else resolve(Array.isArray(body.data) ? body.data : body.data.items);
          }
        });
      })
      .on('error', (error) => {
        if (timer) clearTimeout(timer);
        reject(error);
      });
    const timer = checked ? setTimeout(() => req.destroy(new Error(`page ${page}: timed out`)), 30_000) : undefined;
  });

const isArtist = (item) =>
  typeof item === 'object' && item !== null && (typeof item.id === 'string' || Number.isSafeInteger(item.id));
/** `{data: [artist…]}` or `{data: {items: [artist…], total_count, page, per_page}}`. */
const isPage = (body) => {
  const data = typeof body === 'object' && body !== null ? body.data : undefined;
  const items = Array.isArray(data) ? data : typeof data === 'object' && data !== null ? data.items : undefined;
  return Array.isArray(items) && items.every(isArtist);
};

let firstIds;
const recentIds = [];
const fingerprints = new Set();
/** The page without the records the first page or one of the last four listed. */
function withoutRepeats(items) {
  const ids = items.map((item) => item.id);
  const fingerprint = `${ids.length} ${ids[0]} ${ids[ids.length - 1]}`;
  const fresh = items.filter((_, i) => !(firstIds?.has(ids[i]) || recentIds.some((set) => set.has(ids[i]))));
  if (ids.length > 0 && (fresh.length === 0 || fingerprints.has(fingerprint))) throw new Error('the pages repeat');
  fingerprints.add(fingerprint);
  if (!firstIds) firstIds = new Set(ids);
  else if (recentIds.push(new Set(ids)) > 4) recentIds.shift();
  return fresh;
}

const cell = (value) => {
  let text =
    value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const row = (values) => `${values.map(cell).join(',')}\r\n`;

const out = process.stdout;
let count = 0;
/** An artist's documented fields, both forms (pds's ITEM_SHAPES.artists): CSV's first columns. */
const ARTIST_FIELDS = ['id', 'internal_uuid', 'name', 'project_id', 'created_at', 'updated_at', 'merged'];
let keys;
/** One write per page, in the form asked for. */
function print(items) {
  if (format === 'ndjson') out.write(`${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
  else if (format === 'csv') {
    if (!keys) keys = [...new Set([...ARTIST_FIELDS, ...items.flatMap((item) => Object.keys(item))])];
    out.write((count === 0 ? row(keys) : '') + items.map((item) => row(keys.map((key) => item[key]))).join(''));
  } else {
    out.write(count === 0 ? '[\n' : ',\n');
    const text = JSON.stringify(items, null, 2);
    out.write(text.slice(2, -2));
  }
}

const inflight = [];
let next = 1;
for (;;) {
  while (inflight.length < concurrency) {
    const page = fetchPage(next++);
    page.catch(() => undefined); // pages past the end are dropped unread when the walk stops
    inflight.push(page);
  }
  const page = await inflight.shift();
  const items = checked ? withoutRepeats(page) : page;
  if (items.length > 0) {
    print(items);
    count += items.length;
  }
  if (page.length < perPage) break;
}
if (format === 'json') out.write(count === 0 ? '[]\n' : '\n]\n');
agent.destroy();
