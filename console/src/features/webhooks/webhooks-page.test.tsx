import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aDelivery, anEndpoint, answerGet, deliveriesPage } from '../../testing/fixtures';
import { on, problem, requestsTo } from '../../testing/mock-api';
import { renderPage } from '../../testing/render-page';
import { WebhooksPage } from './webhooks-page';

const show = (url = '/webhooks', scopes?: ('send' | 'read' | 'keys')[]) =>
  renderPage(<WebhooksPage />, { path: '/webhooks', url, scopes });
const location = () => screen.getByTestId('location').textContent;
const deliveries = () => screen.getByRole('region', { name: 'Deliveries' });

describe('the Webhooks page', () => {
  it('says it is loading the endpoints and the deliveries until they answer', async () => {
    on('GET /user/webhook-endpoints', () => 'pending');
    on('GET /user/webhook-deliveries', () => 'pending');
    show();
    const loading = await screen.findAllByRole('status');
    expect(loading.map((state) => state.textContent)).toEqual(expect.arrayContaining(['Loading webhook deliveries…']));
  });

  it('says what an account without endpoints or deliveries will see', async () => {
    answerGet('/user/webhook-endpoints', { endpoints: [] });
    answerGet('/user/webhook-deliveries', deliveriesPage([]));
    show();
    expect(await screen.findByText('No webhook deliveries yet')).toBeInTheDocument();
  });

  it('filters the deliveries by the endpoint and type in the URL', async () => {
    answerGet('/user/webhook-endpoints', { endpoints: [anEndpoint()] });
    answerGet('/user/webhook-deliveries', deliveriesPage([]));
    show('/webhooks?endpoint=ep-1&type=endpoint.test');
    expect(await screen.findByText('No deliveries match')).toBeInTheDocument();
    const query = new URL(requestsTo('/user/webhook-deliveries')[0]!.url).searchParams;
    expect([query.get('endpointId'), query.get('type')]).toEqual(['ep-1', 'endpoint.test']);

    await userEvent.click(within(deliveries()).getByRole('button', { name: 'Clear filters' }));
    expect(location()).toBe('/webhooks');
  });

  it("shows the API's problem when the deliveries fail", async () => {
    answerGet('/user/webhook-endpoints', { endpoints: [] });
    problem('GET /user/webhook-deliveries', 502, 'Bad gateway.');
    show();
    expect(await within(deliveries()).findByRole('alert')).toHaveTextContent('Bad gateway.');
  });

  it('says once why Replay is off for a key without the send scope', async () => {
    answerGet('/user/webhook-endpoints', { endpoints: [anEndpoint()] });
    answerGet('/user/webhook-deliveries', deliveriesPage([aDelivery(), aDelivery({ id: 'dl-2' })]));
    show('/webhooks', ['read']);
    const replays = await within(deliveries()).findAllByRole('button', { name: 'Replay' });
    expect(replays).toHaveLength(2);
    for (const replay of replays) expect(replay).toBeDisabled();
    expect(within(deliveries()).getAllByText(/lacks the send scope/)).toHaveLength(1);
  });

  it('lists the deliveries with their last answer, pages through the URL, and replays one', async () => {
    answerGet('/user/webhook-endpoints', { endpoints: [anEndpoint()] });
    answerGet('/user/webhook-deliveries', deliveriesPage([aDelivery({ type: 'message.bounced' })], { total: 21 }));
    on('POST /user/webhook-deliveries/dl-1/replay', () => ({ status: 202, body: aDelivery() }));
    show();
    const table = await within(deliveries()).findByRole('table');
    expect(within(table).getByText('message.bounced')).toBeInTheDocument();
    expect(within(table).getByText('200')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2 · 21 deliveries')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Replay' }));
    expect(await screen.findByText('Queued again.')).toBeInTheDocument();
    expect(requestsTo('/user/webhook-deliveries/dl-1/replay')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Next →' }));
    expect(location()).toBe('/webhooks?page=2');
  });
});
