// Every route with an id in its path answers an id that cannot be percent-decoded (`%ZZ`) as it
// answers any unknown id: a 404 problem (docs/api.md#authentication), never Express's 400 "Failed to decode param".
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

// Malformed escapes: not hex, cut short, a truncated UTF-8 sequence, an overlong one, a lone surrogate's bytes.
const UNDECODABLE = ['%ZZ', '%', '%4', '%E0%A4%A', '%C0%AF', '%ED%A0%80', 'abc%zz'];

interface IdRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
}

// A route that reads a body gets a valid one, so that its id alone decides the answer.
const VALID_BODIES: Record<string, object> = {
  'patch /domains/:id': { receiving: false },
  'patch /user/webhook-endpoints/:id': { description: 'renamed' },
  'patch /user/members/:id': { role: 'viewer' },
  'post /invitations/:token/accept': { password: 'twelve or more characters' },
  'post /password-reset/:token': { password: 'twelve or more characters' },
};

describe('routes with an id parameter', () => {
  let t: TestApp;
  let routes: IdRoute[];

  beforeAll(async () => {
    t = await bootTestApp();
    // Read from Express's router, so that a route added later is covered without a change here.
    const { stack } = t.app.getHttpAdapter().getInstance().router as unknown as {
      stack: { route?: { path: string; methods: Record<string, boolean> } }[];
    };
    routes = stack.flatMap(({ route }) =>
      route && /\/:\w+/.test(route.path)
        ? Object.keys(route.methods).map((method) => ({ method: method as IdRoute['method'], path: route.path }))
        : [],
    );
  });
  afterAll(() => t.close());

  const call = (route: IdRoute, id: string, userId: string): Promise<Response> => {
    const request = t.http[route.method](route.path.replace(/:\w+/g, id)).set(bearer(userId));
    const body = VALID_BODIES[`${route.method} ${route.path}`];
    return body ? request.send(body) : request;
  };

  const expectNotFoundProblem = (response: Response) => {
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      requestId: expect.any(String),
    });
  };

  it('finds the id routes: GET /user/messages/{id}, POST /user/webhook-deliveries/{id}/replay, the /domains/{id} and /user/inbound/{id} routes at least', () => {
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'get', path: '/user/messages/:id' },
        { method: 'post', path: '/user/webhook-deliveries/:id/replay' },
        { method: 'get', path: '/domains/:id' },
        { method: 'post', path: '/domains/:id/verify' },
        { method: 'delete', path: '/domains/:id' },
        { method: 'patch', path: '/domains/:id' },
        { method: 'get', path: '/user/inbound/:id/attachments/:index' },
      ]),
    );
  });

  it('answers an unknown id and an undecodable one alike: 404 problem', async () => {
    const userId = newUserId();
    for (const route of routes) {
      expectNotFoundProblem(await call(route, randomUUID(), userId));
      for (const id of UNDECODABLE) {
        const response = await call(route, id, userId);
        expect({ route, id, status: response.status }).toEqual({ route, id, status: 404 });
        expectNotFoundProblem(response);
        expect(response.body.detail).not.toMatch(/decode/i);
      }
    }
  });

  it('answers a path that cannot be decoded anywhere else with 404 too', async () => {
    for (const path of ['/user/mess%ZZages', '/%ZZ', '/user/messages/%ZZ/extra']) {
      expectNotFoundProblem(await t.http.get(path).set(bearer(newUserId())));
    }
  });
});
