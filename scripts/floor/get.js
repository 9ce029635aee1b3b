// The floor of `pds projects ls` (npm run bench): one GET with node:http, its body printed.
// Nothing a real client needs beyond that, so any Node client costs at least this much.
import http from 'node:http';

const url = `${process.env.PDS_API_URL}${process.argv[2] ?? '/v1/projects'}`;
http
  .get(url, { headers: { authorization: `Bearer ${process.env.PDS_TOKEN}` } }, (res) => {
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
  })
  .on('error', (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  });
