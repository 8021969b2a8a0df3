// Runs an e2e Worker (wrangler, workerd and the browsers it launches) in a network namespace of its
// own, where the loopback interface also carries a public address: a page served from that address
// is public to the browser and to the guard, while names that resolve to 127.0.0.1 still reach the
// fixture server. That is the only way to test, without a proxy, a public page whose subresources
// resolve privately (every address of this machine is private or loopback). The namespace reaches
// nothing outside it: the test talks to the Worker, and the browser to the fixture server, through
// Unix sockets bridged on both sides (netns-bridge.mjs inside). Needs `unshare` and `ip` (Linux).
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface IsolatedNetwork {
  /** A public unicast address given to the namespace's loopback (the guard must not refuse it). */
  publicAddress: string;
  /** The fixture server's loopback port, reachable inside at 127.0.0.1 and at `publicAddress`. */
  fixturePort: number;
}

export interface IsolatedLaunch {
  command: string;
  args: string[];
  /** Where the test reaches the Worker from outside the namespace. */
  origin: string;
  close(): Promise<void>;
}

const BRIDGE = fileURLToPath(new URL('./netns-bridge.mjs', import.meta.url));

// Brings loopback up with the public address, starts the bridge, then becomes the Node process the
// caller asked for (exec keeps the pid: the Chromium wrapper finds its run folder by its parent's).
const SCRIPT = `address="$1"; node="$2"; bridge="$3"; links="$4"; shift 4
ip link set lo up && ip addr add "$address/32" dev lo || exit 1
"$node" "$bridge" "$links" &
exec "$node" "$@"`;

function pipeBoth(a: Socket, b: Socket): void {
  a.pipe(b).pipe(a);
  for (const [one, other] of [
    [a, b],
    [b, a],
  ] as const) {
    one.on('error', () => other.destroy());
    one.on('close', () => other.destroy());
  }
}

function listening(server: Server, where: { port: number; host: string } | { path: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => resolve());
  });
}

/**
 * The command that starts `nodeArgs` (wrangler) inside a new network namespace whose Worker listens
 * on 127.0.0.1:`workerPort` there.
 */
export async function isolatedLaunch(network: IsolatedNetwork, workerPort: number, nodeArgs: string[]): Promise<IsolatedLaunch> {
  const dir = mkdtempSync(join(tmpdir(), 'page-fetch-netns-'));
  const workerSocket = join(dir, 'worker.sock');
  const fixtureSocket = join(dir, 'fixtures.sock');
  // Outside: the test's TCP port to the Worker's socket, and the fixtures' socket to their TCP port.
  const open = new Set<Socket>();
  const bridge = (dialOut: () => Socket) =>
    createServer((incoming) => {
      const outgoing = dialOut();
      for (const socket of [incoming, outgoing]) {
        open.add(socket);
        socket.on('close', () => open.delete(socket));
      }
      pipeBoth(incoming, outgoing);
    });
  const toWorker = bridge(() => createConnection(workerSocket));
  await listening(toWorker, { port: 0, host: '127.0.0.1' });
  const toFixtures = bridge(() => createConnection({ host: '127.0.0.1', port: network.fixturePort }));
  await listening(toFixtures, { path: fixtureSocket });
  const links = [
    { tcp: `127.0.0.1:${workerPort}`, unix: workerSocket, listen: 'unix' },
    { tcp: `127.0.0.1:${network.fixturePort}`, unix: fixtureSocket, listen: 'tcp' },
    { tcp: `${network.publicAddress}:${network.fixturePort}`, unix: fixtureSocket, listen: 'tcp' },
  ];
  // As root, a network namespace alone; otherwise inside a user namespace that may create one.
  const unshare = process.getuid?.() === 0 ? ['-n'] : ['-rn'];
  const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    command: 'unshare',
    args: [...unshare, 'sh', '-c', SCRIPT, 'sh', network.publicAddress, process.execPath, BRIDGE, JSON.stringify(links), ...nodeArgs],
    origin: `http://127.0.0.1:${(toWorker.address() as AddressInfo).port}`,
    async close() {
      for (const socket of open) socket.destroy();
      await Promise.all([closeServer(toWorker), closeServer(toFixtures)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
