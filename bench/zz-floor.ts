import { sign } from 'jsonwebtoken';
import { benchListDatabase, BENCH_USER } from './list-database';
import { median, startMailroomProcess } from './support';
const SECRET = 'bench-secret-of-at-least-thirty-two-characters';
(async () => {
  const db = await benchListDatabase();
  const m = await startMailroomProcess(db.url, { role: process.env.ROLE as 'all' ?? 'all', env: { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000000' }, nodeArgs: process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [] });
  const auth = `Bearer ${sign({}, SECRET, { algorithm: 'HS256', subject: BENCH_USER, expiresIn: 3600 })}`;
  const time = async (path: string, n = Number(process.env.N ?? 200)) => {
    const t: number[] = [];
    for (let i = 0; i < n; i++) { const s = performance.now(); const r = await fetch(`http://127.0.0.1:${m.port}${path}`, { headers: { authorization: auth } }); await r.arrayBuffer(); t.push(performance.now() - s); }
    return median(t).toFixed(2);
  };
  for (const p of (process.env.PATHS ? process.env.PATHS.split(' ') : ['/health', '/user/webhook-secret', '/user/messages?bulkSending=campaign-7', '/user/messages?toEmail=r4242@example.com', '/user/messages?statuses=failed', '/user/messages?startDate=2026-06-01&endDate=2026-06-30']))
    console.log(p, await time(p));
  await m.stop(); await db.close();
})();
