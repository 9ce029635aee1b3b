// The floor of `pds artists ls --all --json` (npm run bench): walks the pages of a list with
// node:http, 8 requests in flight over keep-alive connections, and prints the records as one
// indented JSON array in page order; it stops at the first page shorter than a full one.
import http from 'node:http';

const [path = '/v1/artists', perPage = 100, concurrency = 8] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a)));
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

const inflight = [];
let next = 1;
let count = 0;
const out = process.stdout;
for (;;) {
  while (inflight.length < concurrency) {
    const page = fetchPage(next++);
    page.catch(() => undefined); // pages past the end are dropped unread when the walk stops
    inflight.push(page);
  }
  const items = await inflight.shift();
  if (items.length > 0) {
    out.write(count === 0 ? '[\n' : ',\n');
    const text = JSON.stringify(items, null, 2);
    out.write(text.slice(2, -2));
    count += items.length;
  }
  if (items.length < perPage) break;
}
out.write(count === 0 ? '[]\n' : '\n]\n');
agent.destroy();
