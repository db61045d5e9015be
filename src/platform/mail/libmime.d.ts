// libmime (the header codec under mailparser and mailsplit) ships no typings; only what the reader uses.
declare module 'libmime' {
  const libmime: {
    /** Splits one (possibly folded) header field into its lower-cased name and unfolded value. */
    decodeHeader(line: string): { key: string; value: string };
    /** Decodes RFC 2047 encoded words. */
    decodeWords(value: string): string;
  };
  export = libmime;
}
