import fc from 'fast-check';
import { oversizeAttachmentsCase, SendCase, sendCaseOf, validSendBody, validSendCase } from './send-bodies';
import { nearValidSendCase } from './send-mutations';
import { anyJunkValue, json, jsonObject, junkKey } from './text';

/* POST /sender/send: every family of generated case, and how often each is drawn. */

/** An object of junk keys and values, known field names among them. */
const junkObjectCase: fc.Arbitrary<SendCase> = fc
  .array(fc.tuple(junkKey, anyJunkValue), { maxLength: 6 })
  .map((entries) => sendCaseOf({ family: 'junk object', raw: jsonObject(entries) }));

/** Any JSON value as the whole body: strings, numbers, arrays, null. */
const junkValueCase: fc.Arbitrary<SendCase> = anyJunkValue.map((raw) => sendCaseOf({ family: 'junk value', raw }));

const MALFORMED_TEXTS = [
  '',
  ' ',
  '{',
  '}',
  '{"subject":}',
  "{'subject':'x'}",
  '{"subject":"x",}',
  '{"a":NaN}',
  '{"a":01}',
  '{"a":.5}',
  '// c\n{}',
  '/* c */{}',
  '\ufeff{}',
  '{"a" "b"}',
  '{"a":1}{"b":2}',
  '{"a":tru}',
  '\u0000',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"line\nbreak"}',
  'undefined',
  '{"subject":"x"',
  '[',
  '{"a":[1,2}',
  '{"a":1e}',
  '{"a":-}',
  '{"\\ud800":1}',
];
/** Text that is not a JSON object: malformed, truncated, or a valid body with garbage spliced in. */
const malformedCase: fc.Arbitrary<SendCase> = fc
  .oneof(
    fc.constantFrom(...MALFORMED_TEXTS),
    fc
      .tuple(
        validSendBody.map((body) => json(body)),
        fc.nat(),
      )
      .map(([raw, cut]) => raw.slice(0, cut % raw.length)),
    fc
      .tuple(
        validSendBody.map((body) => json(body)),
        fc.nat(),
        fc.constantFrom('"', ',', '}', ']', '\\', '\u0000', 'x', ':'),
      )
      .map(([raw, at, junk]) => raw.slice(0, at % raw.length) + junk + raw.slice(at % raw.length)),
  )
  .map((raw) => sendCaseOf({ family: 'malformed', raw }));

export const sendCase: fc.Arbitrary<SendCase> = fc.oneof(
  { weight: 8, arbitrary: validSendCase },
  { weight: 20, arbitrary: nearValidSendCase },
  // About 50 in 2,000: each is 13.3 MiB on the wire (send-limits.e2e-spec.ts pins the boundary).
  { weight: 1, arbitrary: oversizeAttachmentsCase },
  { weight: 4, arbitrary: junkObjectCase },
  { weight: 2, arbitrary: junkValueCase },
  { weight: 4, arbitrary: malformedCase },
);
