/**
 * The port through which message retention asks the webhooks context about the events of messages
 * (docs/architecture.md#dependency-rules): messages may not import webhooks (.dependency-cruiser.cjs),
 * so it says here what it needs and the webhooks context provides it (its EventsModule, global).
 */
export abstract class MessageEventStore {
  /**
   * SQL: whether the message `messageId` (SQL) has an event still to post, for a statement of
   * retention's to keep such a message.
   */
  abstract pendingOfSql(messageId: string): string;

  /** Which of the given event ids still exist, for the queue's sweep of jobs whose event is gone. */
  abstract liveIds(ids: string[]): Promise<string[]>;
}
