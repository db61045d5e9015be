// A counting SMTP sink in a process of its own, so that it does not share the event loop of what
// it measures. Prints its port, then answers "count" on stdin with the number accepted.
import { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { SMTPServer } from 'smtp-server';

let accepted = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  maxClients: 1000,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      accepted += 1;
      callback(null, 'Ok');
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.server.address() as AddressInfo).port}\n`);
});
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'count') process.stdout.write(`${accepted}\n`);
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
