/**
 * One colour per meaning across cards and charts, so "online" is the same green everywhere.
 * Shades are Mantine's 7–8, which keep AA contrast as text on white.
 */
export const STATS_COLORS = {
  online: '#2f9e44',
  offline: '#e8590c',
  notActivated: '#ced4da',
  nodes: '#0b6b99',
  users: '#7048e8',
  claimed: '#1098ad',
  timedOut: '#e03131',
  usersWith: '#1c7ed6',
  usersWithout: '#adb5bd',
  fault: '#c92a2a',
} as const;
