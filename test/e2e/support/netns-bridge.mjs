// Runs inside the network namespace an e2e Worker lives in (isolated-network.ts): the namespace has
// its own loopback and nothing else, so connections cross its border through Unix sockets, whose
// paths both sides see (only the network is unshared). Argument: a JSON list of
//   { "tcp": "host:port", "unix": "/path", "listen": "tcp" | "unix" }
// where `listen` says which end this process listens on; the other end is dialled per connection.
import { createConnection, createServer } from 'node:net';

const links = JSON.parse(process.argv[2] ?? '[]');

function dial(link) {
  if (link.listen === 'tcp') return createConnection(link.unix);
  const colon = link.tcp.lastIndexOf(':');
  return createConnection({ host: link.tcp.slice(0, colon), port: Number(link.tcp.slice(colon + 1)) });
}

for (const link of links) {
  const server = createServer((incoming) => {
    const outgoing = dial(link);
    incoming.pipe(outgoing).pipe(incoming);
    // Either end closing or failing ends both.
    incoming.on('error', () => outgoing.destroy());
    outgoing.on('error', () => incoming.destroy());
    incoming.on('close', () => outgoing.destroy());
    outgoing.on('close', () => incoming.destroy());
  });
  if (link.listen === 'tcp') {
    const colon = link.tcp.lastIndexOf(':');
    server.listen(Number(link.tcp.slice(colon + 1)), link.tcp.slice(0, colon));
  } else {
    server.listen(link.unix);
  }
}
