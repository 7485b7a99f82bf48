import type { EventKind, MonitorEvent } from '@pingmon/sdk';
import type { Problem } from './problem.js';
import type { ListPosition } from './state.js';

// A monitor's timeline (GET /monitors/:monitorId/events) in the runs screen's place: t on the runs goes there and
// back, f steps through the kinds. Paged as the runs are: more once the cursor is within a screen of the end.

/** What f steps through: every kind, then groups of kinds that tell one story each. */
export const EVENT_FILTERS: ReadonlyArray<{ name: string; kinds: EventKind[] }> = [
  { name: 'all', kinds: [] },
  { name: 'runs', kinds: ['run_started', 'run_succeeded', 'run_failed'] },
  { name: 'missed and timed out', kinds: ['missed', 'timed_out'] },
  { name: 'incidents', kinds: ['incident_opened', 'incident_closed'] },
  { name: 'alerts', kinds: ['alert'] },
  { name: 'snoozes and pauses', kinds: ['snoozed', 'paused', 'resumed'] },
];

export interface EventPage {
  events: MonitorEvent[];
  nextCursor: string | null;
}

export interface TimelineState extends ListPosition {
  monitorId: string;
  name: string;
  /** An index into EVENT_FILTERS. */
  filter: number;
  events: MonitorEvent[] | null;
  nextCursor: string | null;
  loadingMore: boolean;
  moreFailed: boolean;
}

export type TimelineAction =
  | { type: 'timelineLoaded'; monitorId: string; filter: number; page: EventPage; at: number }
  | { type: 'moreEventsStarted' }
  | { type: 'moreEventsLoaded'; monitorId: string; filter: number; after: string; page: EventPage }
  | { type: 'moreEventsFailed'; problem: Problem };

export function newTimeline(monitorId: string, name: string, filter = 0): TimelineState {
  const empty = { events: null, nextCursor: null, loadingMore: false, moreFailed: false, cursor: 0, offset: 0 };
  return { monitorId, name, filter, ...empty };
}

/** Events have no id: what happened when, to which run or alert, tells them apart. */
export function eventKey(event: MonitorEvent): string {
  const of = 'alertId' in event ? event.alertId : 'runId' in event ? event.runId : '';
  return `${event.at} ${event.kind} ${of ?? ''}`;
}

/** The timeline after an answer from the server. */
export function timelineAfter(timeline: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case 'timelineLoaded': {
      const selected = timeline.events?.[timeline.cursor];
      const merged = timeline.events ? mergeEvents(timeline.events, timeline.nextCursor, action.page) : action.page;
      const cursor = selected ? merged.events.findIndex((event) => eventKey(event) === eventKey(selected)) : -1;
      return {
        ...timeline,
        events: merged.events,
        nextCursor: merged.nextCursor,
        moreFailed: false,
        cursor: cursor >= 0 ? cursor : timeline.cursor,
      };
    }
    case 'moreEventsStarted':
      return { ...timeline, loadingMore: true };
    case 'moreEventsLoaded': {
      if (!timeline.events) return timeline;
      // A refresh moved the end of the list meanwhile: this page may not follow on; ask again from the new end.
      if (timeline.nextCursor !== action.after) return { ...timeline, loadingMore: false };
      const known = new Set(timeline.events.map(eventKey));
      const added = action.page.events.filter((event) => !known.has(eventKey(event)));
      return {
        ...timeline,
        events: [...timeline.events, ...added],
        nextCursor: action.page.nextCursor,
        loadingMore: false,
      };
    }
    case 'moreEventsFailed':
      return { ...timeline, loadingMore: false, moreFailed: true };
  }
}

/** As mergeRuns: a fresh first page on top, the older events loaded by scrolling kept below it. */
function mergeEvents(loaded: MonitorEvent[], loadedNext: string | null, page: EventPage): EventPage {
  const last = page.events.at(-1);
  if (page.nextCursor === null || !last) return page;
  const inPage = new Set(page.events.map(eventKey));
  const tail = loaded.filter((event) => event.at < last.at && !inPage.has(eventKey(event)));
  return { events: [...page.events, ...tail], nextCursor: tail.length > 0 ? loadedNext : page.nextCursor };
}
