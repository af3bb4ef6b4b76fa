import { pushEventType, type PushEvent } from '@fleetdeck/contract';

/** A notification as both senders shape it. */
export interface PushMessage {
  title: string;
  body: string;
  /** String key/values delivered to the app with the notification. */
  data: Record<string, string>;
}

/** What happened, as the push service hears it from the rest of the server. */
export interface PushOccurrence {
  event: PushEvent;
  node_id?: string;
  node_name?: string;
  group_id?: string;
  group_name?: string;
  detail?: string;
}

const TITLE = 'Fleetdeck';

/** The text of each event's notification (the spec quotes none). */
export function messageOf(occurrence: PushOccurrence): PushMessage {
  const node = occurrence.node_name || occurrence.node_id || 'A device';
  const group = occurrence.group_name || occurrence.group_id || 'A group';
  const texts: Record<PushEvent, string> = {
    user_node_added: `${node} was added to your account.`,
    node_shared_with_user: `${node} was shared with you.`,
    user_node_removed: `${node} was removed from your account.`,
    node_connected: `${node} is online.`,
    node_disconnected: `${node} went offline.`,
    node_params_changed: `${node} reported new values.`,
    node_alert: occurrence.detail ? `${node}: ${occurrence.detail}` : `${node} raised an alert.`,
    node_automation_trigger: occurrence.detail
      ? `${node}: automation "${occurrence.detail}" was triggered.`
      : `An automation of ${node} was triggered.`,
    group_removed: `${group} was removed.`,
    node_config_changed: `${node} changed its configuration.`,
    group_added: `${group} was created with your device.`,
    group_shared_with_user: `${group} was shared with you.`,
  };
  const data: Record<string, string> = { event_type: pushEventType(occurrence.event) };
  if (occurrence.node_id) data.node_id = occurrence.node_id;
  if (occurrence.group_id) data.group_id = occurrence.group_id;
  return { title: TITLE, body: texts[occurrence.event].slice(0, 1500), data };
}
