import { previewOpenApiDocument } from '../../src/openapi-preview';
import { bootTestApp, TestApp } from '../support/test-app';

/** The console's client is typed from the preview document (scripts/build-console.js): it must be the served one. */
describe('the OpenAPI document built without a database', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });

  afterAll(() => t.close());

  it('is the document /docs-json serves', async () => {
    const served = (await t.http.get('/docs-json').expect(200)).body;

    const preview = JSON.parse(JSON.stringify(await previewOpenApiDocument()));

    expect(Object.keys(preview.paths)).toContain('/user/me');
    expect(preview).toEqual(served);
  });
});
