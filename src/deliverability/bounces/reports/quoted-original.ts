/*
 * Where the server's own words end and the copy of the returned message begins, in the bounces
 * that quote it inline rather than attaching it: qmail and Yahoo "--- Below this line is a copy
 * of the message.", Exim "------ This is a copy of the message, including all the headers.
 * ------", Sendmail "----- Original message follows -----" / "----- Unsent message follows
 * -----", old Gmail "----- Original message -----", Outlook "-----Original Message-----",
 * McAfee MXLogic "Included is a copy of the message header:", fml "Original mail as follows:",
 * DragonFly's dma "Message headers follow.", OpenSMTPD "Below is a copy of the original message:",
 * Exim 3 "|---- Message text follows: ----|", 1&1 "--- The header of the original message is
 * following. ---".
 */
const ORIGINAL_MESSAGE_MARKERS =
  /^[ \t]*(?:[|-]+[ \t]*)?(?:below this line is a copy of the message|message (?:headers|text) follows?|(?:the )?headers? of the original message|(?:included is |here is |below is )?a copy of the (?:original )?message|this is a copy of the (?:message|body)|(?:original|unsent|returned) (?:message|mail)(?: headers)?(?: (?:follows|as follows|below))?\s*[:.-]*\s*$)/im;

/** A bounce text split where an inline copy of the returned message begins (`quoted` is empty when none does). */
export function splitAtQuotedOriginal(text: string): { own: string; quoted: string } {
  const marker = ORIGINAL_MESSAGE_MARKERS.exec(text);
  if (!marker) return { own: text, quoted: '' };
  return { own: text.slice(0, marker.index), quoted: text.slice(marker.index + marker[0].length).replace(/^\s+/, '') };
}
