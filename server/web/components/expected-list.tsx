const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** "Sat 2027-03-28 03:00": the day is read from the date itself, so it is the day in that zone. */
function wall(dateTime: string): string {
  const day = DAYS[new Date(`${dateTime.slice(0, 10)}T00:00:00Z`).getUTCDay()];
  return `${day} ${dateTime.slice(0, 10)} ${dateTime.slice(11, 16)}`;
}

/** Expected run openings as the server computed them, in the schedule's zone and in UTC. */
export function ExpectedList(props: {
  timezone: string;
  times: ReadonlyArray<{ at: string; local: string; zone: string }>;
  /** True for an unsaved schedule: the times a monitor given it now would expect. */
  fromNow: boolean;
}) {
  const { timezone, times } = props;
  const utc = timezone === 'UTC';
  return (
    <table className="expected">
      <caption>
        Next {times.length} expected runs{props.fromNow ? ', if saved now' : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">{utc ? 'UTC' : `In ${timezone}`}</th>
          {!utc && <th scope="col">In UTC</th>}
        </tr>
      </thead>
      <tbody>
        {times.map((time) => (
          <tr key={time.at}>
            <td data-label={utc ? 'UTC' : timezone}>
              <time dateTime={time.at}>
                {wall(time.local)} {time.zone}
              </time>
            </td>
            {!utc && <td data-label="UTC">{wall(time.at)} UTC</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
