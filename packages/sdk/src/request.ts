import type { Client } from 'openapi-fetch';
import { MailroomError } from './errors.js';
import type { components, paths } from './generated/openapi.js';

export type Api = Client<paths>;
export type Schemas = components['schemas'];

/**
 * A type as it is: an interface may extend `Shape<Schemas['X']>` where it may not extend
 * `Schemas['X']` itself, and so each answer and body has a name of its own (in editors and in
 * the generated reference, where an alias of `Schemas['X']` showed no fields).
 */
export type Shape<T> = T;

/** The JSON body an operation takes. */
export type BodyOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query an operation takes, every field optional as in the document. */
export type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the request (and any retry waiting to start). */
  signal?: AbortSignal;
}

/**
 * The data of a 2xx answer; a MailroomError for any other answer, or for none (an abort is the
 * caller's own doing and stays what it was).
 */
export async function unwrap<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  let result: { data?: D; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    if (error instanceof MailroomError || (error instanceof Error && error.name === 'AbortError')) throw error;
    throw MailroomError.fromNetwork(error);
  }
  if (!result.response.ok) throw MailroomError.fromResponse(result.response, result.error);
  return result.data as D;
}

/** Bytes an endpoint answers as they are (a message's RFC 5322 source, an attachment). */
export async function bytes(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<Uint8Array> {
  return new Uint8Array((await unwrap(call)) as ArrayBuffer);
}

/**
 * Every item a paged list's query matches, page after page from `query.page` (LARGEST_PAGE a page
 * unless `query.take` says otherwise), asking for the next page while the last one said there is one.
 */
export async function* everyItem<
  Query extends { page?: number; take?: number },
  Page extends { hasNext: boolean },
  Item,
>(
  query: Query,
  list: (query: Query) => Promise<Page>,
  items: (page: Page) => Item[],
): AsyncGenerator<Item, void, undefined> {
  const take = query.take ?? LARGEST_PAGE;
  for (let page = query.page ?? 1; ; page++) {
    const answer = await list({ ...query, take, page });
    yield* items(answer);
    if (!answer.hasNext) return;
  }
}

/** The largest `take` the API allows: the fewest requests for a walk over every page. */
export const LARGEST_PAGE = 100;
