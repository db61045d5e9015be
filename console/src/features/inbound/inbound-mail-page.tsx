import { Link, useParams } from 'react-router';
import { useInboundMail, type InboundMail } from '../../api/inbound';
import { MailBodyView, MailContentSection } from '../../components/mail-content';
import { QueryView } from '../../components/query-view';
import { InboundFields } from './inbound-fields';
import { Verdicts } from './verdicts';

/** One received mail as Message shows one (docs/architecture.md#the-console): its fields, verdicts and content. */
export function InboundMailPage() {
  const { id = '' } = useParams();
  const query = useInboundMail(id);
  return (
    <section aria-labelledby="inbound-mail-title">
      <p>
        <Link to="/inbound" onClick={(event) => history.length > 1 && (event.preventDefault(), history.back())}>
          ← Inbound
        </Link>
      </p>
      <QueryView
        query={query}
        what="the mail"
        inputTitle="Check the mail id in the address"
        back={{ to: '/inbound', label: 'Back to Inbound' }}
      >
        {(mail) => <InboundMailView mail={mail} />}
      </QueryView>
    </section>
  );
}

function InboundMailView({ mail }: { mail: InboundMail }) {
  return (
    <>
      <header className="page-header">
        <h1 id="inbound-mail-title" className="wrap">
          {mail.subject || '(no subject)'}
        </h1>
      </header>
      <InboundFields mail={mail} />
      <Verdicts authentication={mail.authentication} />
      <MailContentSection path={`/user/inbound/${encodeURIComponent(mail.id)}`} emlName={`${mail.id}.eml`}>
        {(save) => <MailBodyView body={mail} headersTitle="Headers" onSave={save} />}
      </MailContentSection>
    </>
  );
}
