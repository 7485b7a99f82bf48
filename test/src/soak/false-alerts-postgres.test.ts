import t from 'tap';
import { POSTGRES_URL } from '../helpers/databases.js';
import { falseAlertTest } from './false-alerts.js';

// The false-alert scenario of the standing fault suite on PostgreSQL; npm run soak runs it large (docs/testing.md).
t.setTimeout(480_000);
t.test(
  'no false alert while pingmon restarts around the slots, on postgres',
  { skip: POSTGRES_URL ? false : 'no test PostgreSQL' },
  (t) => falseAlertTest(t, 'postgres'),
);
