/**
 * Business constants and limits from §9 of both spec documents
 * (`fleet-management.md` and `access-settings-diagnostics.md`). No I/O.
 */

/** Toasts close by themselves after this many milliseconds. */
export const TOAST_AUTO_CLOSE_MS = 5000;

/** Access-token (session) lifetime in seconds. */
export const SESSION_TIMEOUT_SECONDS = 3600;
/** The SPA refreshes its access token this many seconds before it expires. */
export const SESSION_REFRESH_BUFFER_SECONDS = 120;
/** Default life of the readable session-marker cookies. */
export const DEFAULT_COOKIE_LIFE_DAYS = 365;
/** A refresh token is valid for this long after it was issued (rotation extends it). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;
/** Usernames and every other text input on the sign-in screens. */
export const INPUT_MAX_LENGTH = 64;
export const VERIFICATION_CODE_LENGTH = 6;
export const PHONE_NUMBER_DIGITS = 10;
export const TIMESTAMP_DIGITS = 10;

/** Search and name inputs. */
export const SEARCH_MAX_LENGTH = 64;
/** What node ids and OTA image and job ids may contain (NodeIdSchema, OtaIdSchema). */
export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const NAME_MAX_LENGTH = 64;
export const GROUP_DESCRIPTION_MAX_LENGTH = 500;

/** Page sizes offered by each list, with the default first-load size. */
export const PAGE_SIZES = {
  devices: [5, 10, 15, 25],
  nodesOfGroup: [5, 10, 15, 25],
  groups: [5, 10, 25],
  images: [5, 10, 25],
  jobs: [5, 10, 25],
  users: [5, 10, 25],
  faultList: [10, 20, 25],
  faultDeviceList: [10, 20, 25],
  faultHistory: [5, 10, 15, 25],
} as const satisfies Record<string, readonly number[]>;

export const DEFAULT_PAGE_SIZE = 10;
/** Nodes of a group or of a user are listed 5 at a time by default. */
export const DEFAULT_NODES_OF_GROUP_PAGE_SIZE = 5;

/** Job details list groups only up to this many. */
export const JOB_GROUPS_DISPLAY_LIMIT = 20;
/** Job details list nodes only up to this many. */
export const JOB_NODES_DISPLAY_LIMIT = 10;

export const FORCE_PUSH_DEFAULT = true;
/** The reserved id meaning "every node". */
export const ALL_NODES_GROUP_ID = 'FFFF-FFFF';
/** The Start OTA node lookup waits this long after typing. */
export const NODE_LOOKUP_DELAY_MS = 1000;
export const BYTES_PER_MB = 1048576;

export const GEO_REGIONS = ['Mumbai', 'Kolkata', 'Pune', 'Delhi', 'banglore', 'Other'] as const;
export type GeoRegion = (typeof GEO_REGIONS)[number];

export const NODE_TYPES = ['Air Conditioner', 'Refrigerator', 'Washing Machine'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const DEFAULT_EMAIL_TEMPLATE_TYPE = 'Welcome Email Notification';
export const INVITE_MESSAGE_TEMPLATE_TYPE = 'INVITE_MESSAGE';

/** Diagnostics. */
export const DIAGNOSTICS_INTERVALS = ['Day', 'Week', 'Month'] as const;
export const DIAGNOSTICS_DEFAULT_INTERVAL = 'Month';
export const DIAGNOSTICS_WEEK_WINDOW_DAYS = 7;
export const DIAGNOSTICS_MONTH_WINDOW_DAYS = 30;
export const EVENT_LIST_PAGE_SIZE = 10;
export const METRIC_LIST_DEFAULT_LIMIT = 150;
/** Metric list limits by range length in days. */
export const METRIC_LIST_LIMITS_BY_RANGE_DAYS = { 1: 200, 6: 1000, 24: 1400 } as const;
export const PARAM_LIST_LIMIT = 150;
export const GRAPH_RANGE_MIN_HOURS = 1;
export const GRAPH_RANGE_MAX_HOURS = 24;
export const GRAPH_RANGE_STEP_SECONDS = 3600;
export const GRAPH_RANGE_DEFAULT_HOURS = 1;
export const METRICS_WIDGET_MAX_HOURS = 3;
export const MAX_GRAPHS = 5;
export const LOG_TYPES = ['error', 'warning', 'event', 'crash', 'reboot'] as const;

/** Mobile push events (12), each prefixed `rmaker.event.`. */
export const PUSH_EVENT_PREFIX = 'rmaker.event.';
export const PUSH_EVENTS = [
  'user_node_added',
  'node_shared_with_user',
  'user_node_removed',
  'node_connected',
  'node_disconnected',
  'node_params_changed',
  'node_alert',
  'node_automation_trigger',
  'group_removed',
  'node_config_changed',
  'group_added',
  'group_shared_with_user',
] as const;
export const PUSH_PLATFORMS = ['GCM', 'APNS', 'APNS_SANDBOX'] as const;

/**
 * The parameter (the insights "dimension") in which each appliance type reports its current fault
 * code (access §7 Statistics and faults: ACFault, datatype 2).
 */
export const FAULT_PARAM_BY_TYPE: Readonly<Record<NodeType, string>> = {
  'Air Conditioner': 'ACFault',
  Refrigerator: 'RefFault',
  'Washing Machine': 'WasherFault',
};

/** Statistics. */
export const STATS_DURATIONS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export const STATS_DAILY_DEFAULT_DAYS = 7;
export const STATS_DAILY_MAX_DAYS = 31;
export const STATS_WEEKLY_MAX_MONTHS = 3;
/** Monthly ranges: the screen offers the current and the previous year, so up to 24 months. */
export const STATS_MONTHLY_MAX_MONTHS = 24;
/** Yearly ranges: RainMaker's limit of five years. */
export const STATS_YEARLY_MAX_YEARS = 5;
/** Year choices on screen: the current year and the one before it. */
export const STATS_YEAR_CHOICES = 2;

/** Dates display as DD MMM YY HH:mm in UTC; lists use DD MMM YY, HH:mm. */
export const DATE_FORMAT = 'DD MMM YY HH:mm';
export const LIST_DATE_FORMAT = 'DD MMM YY, HH:mm';
export const CALENDAR_DATE_FORMAT = 'DD-MMM-YYYY';

export const COPYRIGHT_YEAR = 2025;

/** Deployment modes: the customer mode switches to the `…2` endpoints and hides sign-up. */
export const DEPLOYMENT_MODES = ['standard', 'customer'] as const;
export type DeploymentMode = (typeof DEPLOYMENT_MODES)[number];
