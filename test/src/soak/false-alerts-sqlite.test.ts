import t from 'tap';
import { falseAlertTest } from './false-alerts.js';

// The false-alert scenario of the standing fault suite on SQLite; npm run soak runs it large (docs/testing.md).
t.setTimeout(480_000);
t.test('no false alert while pingmon restarts around the slots, on sqlite', (t) => falseAlertTest(t, 'sqlite'));
