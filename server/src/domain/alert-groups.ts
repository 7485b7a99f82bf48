// One alert per problem (docs/alerts.md#one-alert-per-problem): when a sweep finds several monitors of one account
// missed and their last runs came from the same host, that host most likely died, and their missed alerts go out
// as one message. Each monitor still has its own alert (and its own incident); only the message is shared.

/** What grouping needs of an alert. */
interface Groupable {
  alertId: string;
  accountId: string;
  monitorId: string;
}

/**
 * `alerts` (in the order raised) with the host of each monitor's last run (`hosts`, by monitor id) and, for two or
 * more of one account on one host, the group they share: the id of the first of them, whose deliveries carry the
 * message.
 */
export function groupByHost<T extends Groupable>(
  alerts: readonly T[],
  hosts: ReadonlyMap<string, string>,
): Array<T & { host: string | null; groupId: string | null }> {
  const groups = new Map<string, T[]>();
  for (const alert of alerts) {
    const host = hosts.get(alert.monitorId);
    if (host === undefined) continue;
    // JSON: neither part can make another pair's key.
    const key = JSON.stringify([alert.accountId, host]);
    groups.set(key, [...(groups.get(key) ?? []), alert]);
  }
  const groupOf = new Map<string, string>();
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    for (const member of members) groupOf.set(member.alertId, members[0]!.alertId);
  }
  return alerts.map((alert) => ({
    ...alert,
    host: hosts.get(alert.monitorId) ?? null,
    groupId: groupOf.get(alert.alertId) ?? null,
  }));
}
