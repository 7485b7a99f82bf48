import { useEffect } from 'react';
import { loadMonitors } from '../pages/monitors.js';
import { downCount } from '../find.js';
import { setDownCount } from '../title.js';
import { usePoll } from '../use-poll.js';

/**
 * Keeps the tab's title and icon saying how many monitors are down while another page than the monitors is open
 * (that page counts them from its own reads): the monitors without their run history, one request per refresh.
 */
export function TabStatus() {
  const { data } = usePoll('tab status', () => loadMonitors(0));
  useEffect(() => {
    if (data) setDownCount(downCount(data.monitors));
  }, [data]);
  return null;
}
