import { sign } from 'jsonwebtoken';
const port = Number(process.argv[2]); const N = Number(process.argv[3] ?? 2000);
const authorization = `Bearer ${sign({}, 'bench-secret-of-at-least-thirty-two-characters', { algorithm: 'HS256', subject: 'bench', expiresIn: 3600 })}`;
(async () => {
  let next = 0; const t = performance.now();
  await Promise.all(Array.from({ length: 32 }, async () => { while (next < N) { const i = next++; const r = await fetch(`http://127.0.0.1:${port}/sender/send`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ subject: 'x'+i, html: '<p>hi</p>', to: [`u${i}@example.com`], sender: 'b@example.com' }) }); await r.text(); } }));
  console.log('rate', (N / ((performance.now() - t) / 1000)).toFixed(0));
})();
