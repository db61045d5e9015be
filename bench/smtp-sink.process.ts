// A counting SMTP sink in a process of its own, so that it does not share the event loop of what
// it measures. Prints its port, then answers "count" on stdin with the number accepted.
// `--hosts 127.0.0.11,127.0.0.12 --delay-ms 20`: one server on each loopback address, all on the
// same port (direct delivery's DIRECT_MX_PORT is one port), each taking that long per message, as
// a receiving site does (the direct section); the default is one instant server on 127.0.0.1.
import { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';

const { values } = parseArgs({
  options: { hosts: { type: 'string', default: '127.0.0.1' }, 'delay-ms': { type: 'string', default: '0' } },
});
const delayMs = Number(values['delay-ms']);
const hosts = values.hosts.split(',');

let accepted = 0;
const servers = hosts.map(
  () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      maxClients: 1000,
      onData(stream, _session, callback) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          const accept = () => {
            accepted += 1;
            callback(null, 'Ok');
          };
          if (delayMs > 0) setTimeout(accept, delayMs);
          else accept();
        });
      },
    }),
);

async function listen(): Promise<number> {
  const listenOn = (server: SMTPServer, host: string, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, host, () => resolve((server.server.address() as AddressInfo).port));
    });
  const port = await listenOn(servers[0], hosts[0], 0);
  for (const [index, host] of hosts.entries()) if (index > 0) await listenOn(servers[index], host, port);
  return port;
}

listen().then(
  (port) => process.stdout.write(`${port}\n`),
  (error: unknown) => {
    process.stderr.write(`the sink could not listen: ${String(error)}\n`);
    process.exit(1);
  },
);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'count') process.stdout.write(`${accepted}\n`);
});
process.stdin.on('end', () => {
  let open = servers.length;
  for (const server of servers) server.close(() => --open === 0 && process.exit(0));
});
