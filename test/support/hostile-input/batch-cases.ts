import fc from 'fast-check';
import { oversizeAttachmentsCase, SendCase, sendCaseOf, validSendBody, validSendCase } from './send-bodies';
import { nearValidSendCase } from './send-mutations';
import { anyJunkValue, json, jsonArray, jsonObject, junkKey, junkValue } from './text';

/*
 * POST /sender/send/batch: batches of the send cases. A batch is refused whole when any of its
 * messages is, and its errors name the message: `messages[i].<field>`.
 */

const MAX_BATCH = 100;
const SMALL_BODY = { subject: 'Hi', html: '<p>Hi</p>', to: ['ada@example.com'], sender: 'billing@example.com' };

const batchOf = (messages: string[], extra: [string, string][] = []) =>
  jsonObject([['messages', jsonArray(messages)], ...extra]);

/** 1–4 valid bodies, or now and then the most a batch takes. */
const validBatchCase: fc.Arbitrary<SendCase> = fc
  .oneof(
    {
      weight: 20,
      arbitrary: fc.array(validSendCase, { minLength: 1, maxLength: 4 }).map((cases) => cases.map((c) => c.raw)),
    },
    {
      weight: 1,
      arbitrary: fc.constant(Array.from({ length: MAX_BATCH }, (_, i) => json({ ...SMALL_BODY, subject: `Hi ${i}` }))),
    },
  )
  .chain((messages) =>
    fc
      .option(
        validSendCase.map((c) => c.idempotencyKey),
        { nil: undefined },
      )
      .map((key) =>
        sendCaseOf({
          family: 'valid batch',
          raw: batchOf(messages),
          idempotencyKey: key ?? undefined,
          expect: { status: 201 },
        }),
      ),
  );

/** A valid batch with one message broken as the single send's near-valid cases break it. */
const oneBrokenCase: fc.Arbitrary<SendCase> = fc
  .tuple(fc.array(validSendBody, { maxLength: 3 }), nearValidSendCase, fc.nat())
  .map(([valid, broken, at]) => {
    const messages = valid.map((body) => json(body));
    const i = at % (messages.length + 1);
    messages.splice(i, 0, broken.raw);
    // A broken header is the batch's; a broken field is its message's.
    const fields = broken.expect?.fields?.map((field) =>
      field === 'Idempotency-Key' ? field : `messages[${i}].${field}`,
    );
    return sendCaseOf({
      family: 'one message broken',
      raw: batchOf(messages),
      idempotencyKey: broken.idempotencyKey,
      expect: fields && { status: 400, fields },
    });
  });

/** A valid batch with one message over MAX_ATTACHMENT_BYTES: 413 for all. */
const oneOversizeCase: fc.Arbitrary<SendCase> = fc
  .tuple(oversizeAttachmentsCase, fc.boolean())
  .map(([oversize, first]) => {
    const messages = first ? [oversize.raw, json(SMALL_BODY)] : [json(SMALL_BODY), oversize.raw];
    return sendCaseOf({ family: 'one message oversize', raw: batchOf(messages), expect: { status: 413 } });
  });

/** `messages` of the wrong size or kind, or with junk beside it. */
const badEnvelopeCase: fc.Arbitrary<SendCase> = fc
  .oneof(
    fc.constant(batchOf([])),
    fc.constant(batchOf(Array.from({ length: MAX_BATCH + 1 }, () => json(SMALL_BODY)))),
    // Small junk: a body of more than 100,000 values is refused whole, without naming a field.
    junkValue.filter((v) => !v.startsWith('[')).map((v) => jsonObject([['messages', v]])),
    fc.array(junkValue, { minLength: 1, maxLength: 3 }).map((items) => batchOf(items)),
  )
  .map((raw) => sendCaseOf({ family: 'bad messages', raw, expect: { status: 400, fields: ['messages'] } }));

const junkBesideCase: fc.Arbitrary<SendCase> = fc
  .tuple(
    fc.array(
      fc.tuple(
        junkKey.filter((k) => k !== 'messages'),
        anyJunkValue,
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([extra]) => sendCaseOf({ family: 'junk beside messages', raw: batchOf([json(SMALL_BODY)], extra) }));

/** A single send's body where a batch is expected. */
const singleBodyCase: fc.Arbitrary<SendCase> = validSendBody.map((body) =>
  sendCaseOf({ family: 'single body', raw: json(body), expect: { status: 400, fields: ['messages'] } }),
);

export const batchCase: fc.Arbitrary<SendCase> = fc.oneof(
  { weight: 6, arbitrary: validBatchCase },
  { weight: 12, arbitrary: oneBrokenCase },
  { weight: 1, arbitrary: oneOversizeCase },
  { weight: 3, arbitrary: badEnvelopeCase },
  { weight: 2, arbitrary: junkBesideCase },
  { weight: 1, arbitrary: singleBodyCase },
);
