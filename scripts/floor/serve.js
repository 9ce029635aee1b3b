// The floor of the emulator's throughput (npm run bench): a bare node:http server that answers every
// request with one fixed answer, the bytes the emulator sent for the same request (fetched once at
// start from the emulator at argv[2], path argv[3]). Nothing a server can skip: parse the request,
// write the head, send the body. It prints its address as `pds emulator start` does.
//
// node serve.js <emulator url> <path>
import http from 'node:http';

const [target, path] = process.argv.slice(2);
const sample = await fetch(`${target}${path}`, { headers: { authorization: `Bearer ${process.env.PDS_TOKEN}` } });
const body = Buffer.from(await sample.arrayBuffer());
const contentType = sample.headers.get('content-type') ?? 'application/json';

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGINT', () => server.close(() => process.exit(0)).closeAllConnections());
