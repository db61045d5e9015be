// type/subtype in RFC 6838 characters: nothing that could break out of a Content-Type header.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The media type a file of a user's is stored and served with: the one it declares when
 * well-formed, else application/octet-stream. An uploaded part's type and a submitted mail's part's
 * type both go through it, so that no declared type can make a response header invalid.
 */
export function servableMediaType(declared: string): string {
  const type = declared.toLowerCase();
  return MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
}
