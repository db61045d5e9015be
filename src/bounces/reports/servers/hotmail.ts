import { MailServer } from './mail-server';

/*
 * Hotmail / Outlook.com (the consumer service, before Office 365's format), identified by the
 * sender of its reports (postmaster at a hotmail host) or its Reporting-MTA. Its own outbound
 * relay says "The mail could not be delivered to the recipient because the domain is not
 * reachable" when the recipient's domain cannot be resolved: the domain, not the mailbox, is
 * what does not exist.
 */
export const hotmail: MailServer = {
  family: 'hotmail',
  identifies: (mail) =>
    /^postmaster@(?:[\w-]+\.)*hotmail\./.test(mail.from ?? '') ||
    /^reporting-mta:\s*dns;\s*[\w-]+\.hotmail\./im.test(mail.parts('message/delivery-status').join('\n')),
  addressFailure: /could not be delivered to the recipient because the domain is not reachable/i,
};
