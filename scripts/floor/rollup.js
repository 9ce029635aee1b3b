// The floor of `pds statements lines --all --by …` in npm run bench: lists the statements with
// node:http, then for each one asks for its signed lines link and fetches the CSV, 8 at a time over
// keep-alive connections, holds each export whole, splits it on newlines and commas (no quoting
// rules) and sums one column (licensor_revenue, found in the header) as floats. It prints the sum.
//
// node rollup.js
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const api = process.env.PDS_API_URL;
const project = process.env.PDS_PROJECT;
const headers = { authorization: `Bearer ${process.env.PDS_TOKEN}` };

const get = (url, withAuth) =>
  new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: withAuth ? headers : {} }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString())
            : reject(new Error(`${url}: HTTP ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });

const ids = [];
for (let page = 1; ; page++) {
  const body = JSON.parse(await get(`${api}/v1/statements?projectId=${project}&perPage=100&page=${page}`, true));
  const items = Array.isArray(body.data) ? body.data : body.data.items;
  for (const item of items) if (item.financials) ids.push(item.id);
  if (items.length < 100) break;
}

let sum = 0;
let next = 0;
const worker = async () => {
  while (next < ids.length) {
    const id = ids[next++];
    const statement = JSON.parse(await get(`${api}/v1/statements/${id}?projectId=${project}&detailed=true`, true));
    const csv = await get(statement.data.detailed.csv_url, false);
    const rows = csv.split('\n');
    const column = rows[0].split(',').indexOf('licensor_revenue');
    for (let i = 1; i < rows.length; i++) if (rows[i]) sum += Number.parseFloat(rows[i].split(',')[column]);
  }
};
await Promise.all(Array.from({ length: 8 }, worker));
agent.destroy();
process.stdout.write(`${sum}\n`);
