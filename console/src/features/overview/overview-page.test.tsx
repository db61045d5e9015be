import { describe, expect, it, jest } from '@jest/globals';
import { screen } from '@testing-library/react';
import type { Stats } from '../../api/stats';
import { answerGet } from '../../testing/fixtures';
import { on, problem } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { OverviewPage } from './overview-page';

// uPlot draws on a canvas, which jsdom has not: the chart is the browser suites' to check.
jest.mock('./stats-chart', () => ({ __esModule: true, default: () => <p>the chart</p> }));

const show = () => renderPage(<OverviewPage />, { path: '/overview' });
const zero = { sent: 0, failed: 0, bounced: 0, complained: 0, suppressed: 0, canceled: 0, deferred: 0, pending: 0 };

function stats(accepted: number, complaintRate: number | null): Stats {
  return {
    startDate: '2026-04-05',
    endDate: '2026-05-04',
    days: [],
    totals: { accepted, byStatus: {}, recipients: { ...zero, sent: accepted } },
    rates: { delivered: accepted, bounceRate: 0, complaintRate },
  } as unknown as Stats;
}

describe('the Overview page', () => {
  it('says it is loading until the stats answer', async () => {
    on('GET /user/stats', () => 'pending');
    show();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the stats…');
  });

  it('tells a new account how to send its first message', async () => {
    answerGet('/user/stats', stats(0, null));
    show();
    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
  });

  it("shows the API's problem when the stats fail", async () => {
    problem('GET /user/stats', 500, 'Internal failure.');
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal failure.');
  });

  it('says not allowed when the credential may not read the stats', async () => {
    problem('GET /user/stats', 403, 'This API key lacks the read scope.');
    show();
    expect(await screen.findByText('Not allowed')).toBeInTheDocument();
  });

  it('shows the totals and warns when complaints pass the mailbox providers’ limit', async () => {
    answerGet('/user/stats', stats(1200, 0.004));
    show();
    expect(await screen.findByText('0.40 %')).toBeInTheDocument();
    expect(screen.getByText('Complaint rate').parentElement).toHaveClass('stat-warn');
    expect(await screen.findByText('the chart')).toBeInTheDocument();
  });
});
