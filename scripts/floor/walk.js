// The floor of `pds artists ls --all --json` (and `--format ndjson|csv`) in npm run bench: walks
// the pages of a list with node:http, 8 requests in flight over keep-alive connections, and prints
// the records in page order as pds prints them: one indented JSON array, a JSON record a line, or
// CSV (RFC 4180, a header of the first page's keys, `'` before a cell that starts like a formula).
// It stops at the first page shorter than a full one.
//
// node walk.js <path> [json|ndjson|csv] [perPage] [concurrency]
import http from 'node:http';

const [path = '/v1/artists', format = 'json', perPage = 100, concurrency = 8] = process.argv.slice(2).map((a, i) => (i < 2 ? a : Number(a)));
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const base = `${process.env.PDS_API_URL}${path}?projectId=${process.env.PDS_PROJECT}&perPage=${perPage}&page=`;
const headers = { authorization: `Bearer ${process.env.PDS_TOKEN}` };

const fetchPage = (page) =>
  new Promise((resolve, reject) => {
    http
      .get(`${base}${page}`, { agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`page ${page}: HTTP ${res.statusCode}`));
          else resolve(JSON.parse(Buffer.concat(chunks).toString()).data);
        });
      })
      .on('error', reject);
  });

const cell = (value) => {
  let text = value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const row = (values) => `${values.map(cell).join(',')}\r\n`;

const out = process.stdout;
let count = 0;
let keys;
/** One write per page, in the form asked for. */
function print(items) {
  if (format === 'ndjson') out.write(`${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
  else if (format === 'csv') {
    if (!keys) keys = [...new Set(items.flatMap((item) => Object.keys(item)))];
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
  const items = await inflight.shift();
  if (items.length > 0) {
    print(items);
    count += items.length;
  }
  if (items.length < perPage) break;
}
if (format === 'json') out.write(count === 0 ? '[]\n' : '\n]\n');
agent.destroy();
