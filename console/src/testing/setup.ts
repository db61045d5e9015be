import '@testing-library/jest-dom/jest-globals';
import { afterEach, expect } from '@jest/globals';
import { cleanup } from '@testing-library/react';
import { fetchStub, resetApi } from './mock-api';

// openapi-fetch takes the global fetch once, when the client is created: the stub must be it.
globalThis.fetch = fetchStub;

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  expect(resetApi()).toEqual([]);
});
