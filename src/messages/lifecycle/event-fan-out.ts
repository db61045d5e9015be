/**
 * The port through which the lifecycle's statements hand their events to the webhooks context
 * (docs/architecture.md#dependency-rules): messages describes its events, webhooks writes them for
 * their targets. Messages may not import webhooks (.dependency-cruiser.cjs), so it says here what it
 * needs and the webhooks context provides it (its EventsModule, global). It returns SQL that the
 * change's own statement includes, so that its events are written with it, in one statement.
 */
export abstract class EventFanOut {
  /**
   * The CTE `name`, which writes the events of the CTE `events` for their targets and returns one
   * (id, message_id) row per event and target written (the jobs to queue). `events` has one row per
   * event, each drawn once (materialized): event_id uuid, created_at, type, user_id, message_id,
   * status, status_changes (the event's sequence), recipient_fates, data (jsonb or null), and
   * own_url (the message's own webhook when it asked for this event, else null).
   */
  abstract cte(name: string, events: string): string;
}
