import '@testing-library/jest-dom/jest-globals';
import { afterEach, expect } from '@jest/globals';
import { cleanup } from '@testing-library/react';
import { session } from '../api/session';
import { fetchStub, resetApi } from './mock-api';

// openapi-fetch takes the global fetch once, when the client is created: the stub must be it.
globalThis.fetch = fetchStub;

afterEach(() => {
  cleanup();
  // No test's session (a key, a member's cookie) carries into the next.
  session.signOut();
  sessionStorage.clear();
  expect(resetApi()).toEqual([]);
});
