import { headOf, MailServer } from './mail-server';

/*
 * Lotus Notes and its successor HCL Domino, identified by their notices: Domino's subject
 * "DELIVERY FAILURE: …", Notes' "------- Failure Reasons --------" section. Both look the
 * recipient up in the organisation's directory and say so when it is absent: "User … not listed
 * in Domino Directory", older "User not listed in public Name & Address Book" (the Notes name of
 * that directory), and so in its translations (Spanish "no se encuentra en el Directorio de
 * Domino", French "non répertorié dans l'annuaire Domino"). No status code comes with it.
 */
export const lotusNotes: MailServer = {
  family: 'lotus-notes',
  identifies: (mail) =>
    /^delivery failure:/i.test(mail.header('subject') ?? '') || /^-+ *failure reasons *-+/im.test(headOf(mail)),
  addressFailure:
    /not listed in (?:the )?(?:domino directory|public name & address book)|no se encuentra en el directorio de domino|non r\u00e9pertori\u00e9 dans l'annuaire domino/i,
};
