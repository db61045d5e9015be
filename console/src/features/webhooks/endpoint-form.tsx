import { useId, useState, type FormEvent } from 'react';
import type { Permission } from '../../api/caller';
import { EVENT_GROUPS, type EventType, type WebhookEndpoint } from '../../api/webhook-endpoints';
import { ActionButton } from '../../components/action-button';
import { InlineError } from '../../components/states';

export interface EndpointFields {
  url: string;
  description: string;
  events: EventType[];
}

/** The URL, description and event types of a new or an existing endpoint; no type chosen means all. */
export function EndpointForm({
  initial,
  label,
  submitLabel,
  permission,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: WebhookEndpoint;
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  permission: Permission;
  pending: boolean;
  error: Error | null;
  onSubmit: (fields: EndpointFields) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<EventType[]>(initial?.events ?? []);
  const toggle = (type: EventType) =>
    setEvents(events.includes(type) ? events.filter((t) => t !== type) : [...events, type]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ url: url.trim(), description: description.trim(), events });
  };
  const disabled = !permission.allowed;

  return (
    <form className="card endpoint-form" onSubmit={submit} aria-label={label}>
      <div className="filter-grid">
        <label htmlFor={`${id}-url`}>URL</label>
        <input
          id={`${id}-url`}
          type="url"
          name="url"
          required
          maxLength={2048}
          placeholder="https://hooks.your-app.example/mailroom"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          disabled={disabled}
        />
        <label htmlFor={`${id}-description`}>Description</label>
        <input
          id={`${id}-description`}
          name="description"
          maxLength={255}
          placeholder="Bounces to the CRM"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          disabled={disabled}
        />
      </div>
      <fieldset aria-describedby={`${id}-events-hint`}>
        <legend>Event types</legend>
        <p id={`${id}-events-hint`} className="muted small">
          {events.length === 0
            ? 'None chosen: it receives every event type, including any added later.'
            : `${events.length} chosen: it receives only these.`}
        </p>
        {EVENT_GROUPS.map((group) => (
          <fieldset key={group.name} className="event-group">
            <legend className="small">{group.name}</legend>
            <div className="statuses">
              {group.types.map((type) => (
                <label key={type} className="check">
                  <input
                    type="checkbox"
                    name="events"
                    value={type}
                    checked={events.includes(type)}
                    onChange={() => toggle(type)}
                    disabled={disabled}
                  />
                  <code>{type}</code>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
      </fieldset>
      <div className="form-actions">
        <ActionButton type="submit" className="primary" permission={permission} pending={pending}>
          {submitLabel}
        </ActionButton>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <InlineError error={error} />
    </form>
  );
}
