// Child process of service.bench.ts: a load generator kept out of the server's event loop.
//   load <url> <connections> <ms>        → prints {"requests": n, "errors": n}
//   sse <url> <subscribers>              → connects, prints "ready", then for each received
//                                          pipeline-update prints the receive time of the last one
import http from 'node:http';

const [mode, url, a, b] = process.argv.slice(2) as [string, string, string, string];

if (mode === 'load') {
  const connections = Number(a);
  const duration = Number(b);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let requests = 0;
  let errors = 0;
  const end = Date.now() + duration;
  const one = () =>
    new Promise<void>((resolve) => {
      http
        .get(url, { agent }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            if (res.statusCode === 200) requests++;
            else errors++;
            resolve();
          });
        })
        .on('error', () => {
          errors++;
          resolve();
        });
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  process.stdout.write(JSON.stringify({ requests, errors }) + '\n');
  agent.destroy();
} else if (mode === 'sse') {
  const subscribers = Number(a);
  let connected = 0;
  const received = new Map<string, number>();
  for (let i = 0; i < subscribers; i++) {
    http.get(url, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /"seq":(\d+)/.exec(block)?.[1];
          if (id && block.startsWith('event: pipeline-update')) {
            const at = performance.timeOrigin + performance.now();
            received.set(id, Math.max(received.get(id) ?? 0, at));
            const count = (received.get(`n${id}`) ?? 0) + 1;
            received.set(`n${id}`, count);
            if (count === subscribers)
              process.stdout.write(
                JSON.stringify({ seq: Number(id), lastAt: received.get(id) }) + '\n',
              );
          }
        }
      });
      if (++connected === subscribers) process.stdout.write('ready\n');
    });
  }
}
