--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: pingmon_fixture; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA pingmon_fixture;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.accounts (
    id character varying(32) NOT NULL,
    plan character varying(16) NOT NULL,
    created_at bigint NOT NULL,
    slug character varying(64)
);


--
-- Name: alert_deliveries; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.alert_deliveries (
    alert_id character varying(32) NOT NULL,
    channel_id character varying(32) NOT NULL,
    state character varying(16) NOT NULL,
    attempts integer NOT NULL,
    next_attempt_at bigint NOT NULL,
    claimed_until bigint,
    claim_token character varying(32),
    delivered_at bigint,
    last_error text,
    repeats integer DEFAULT 0 NOT NULL,
    repeat_attempts integer DEFAULT 0 NOT NULL
);


--
-- Name: alerts; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.alerts (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    monitor_id character varying(32) NOT NULL,
    run_id character varying(64),
    event character varying(16) NOT NULL,
    status character varying(16) NOT NULL,
    error_message text,
    log_snippet text,
    meta text NOT NULL,
    matched_rules text NOT NULL,
    created_at bigint NOT NULL,
    expected_at bigint,
    server_gap_from bigint,
    server_gap_to bigint,
    log_tail text,
    last_run_at bigint,
    last_run_status character varying(16),
    host character varying(255),
    group_id character varying(32),
    incident_key character varying(64),
    cause character varying(16),
    repeats integer
);


--
-- Name: api_keys; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.api_keys (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    name character varying(100) NOT NULL,
    prefix character varying(16) NOT NULL,
    key_hash character varying(64) NOT NULL,
    created_at bigint NOT NULL,
    revoked_at bigint,
    provision boolean DEFAULT true NOT NULL,
    scope character varying(8) DEFAULT 'ping'::character varying NOT NULL,
    monitor_ids text,
    last_used_at bigint
);


--
-- Name: audit_entries; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.audit_entries (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    at bigint NOT NULL,
    actor_type character varying(16) NOT NULL,
    actor_id character varying(32) NOT NULL,
    actor_name character varying(254) NOT NULL,
    address character varying(64) NOT NULL,
    action character varying(64) NOT NULL,
    target_type character varying(32),
    target_id character varying(32),
    target_name character varying(254),
    monitor_id character varying(32),
    changes text
);


--
-- Name: channel_monitors; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.channel_monitors (
    channel_id character varying(32) NOT NULL,
    monitor_id character varying(32) NOT NULL
);


--
-- Name: channels; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.channels (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    name character varying(100) NOT NULL,
    type character varying(16) NOT NULL,
    url text NOT NULL,
    secret text,
    restricted boolean NOT NULL,
    enabled boolean NOT NULL,
    created_at bigint NOT NULL,
    tests_in_window integer DEFAULT 0 NOT NULL,
    test_window_started_at bigint,
    options text DEFAULT '{}'::text NOT NULL,
    repeat_every integer,
    escalate_after integer
);


--
-- Name: delivery_attempts; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.delivery_attempts (
    alert_id character varying(32) NOT NULL,
    channel_id character varying(32) NOT NULL,
    attempt integer NOT NULL,
    attempted_at bigint NOT NULL,
    duration_ms integer NOT NULL,
    status_code integer,
    error text
);


--
-- Name: events; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.events (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    monitor_id character varying(32) NOT NULL,
    kind character varying(16) NOT NULL,
    at bigint NOT NULL,
    data text NOT NULL
);


--
-- Name: invites; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.invites (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    email character varying(254) NOT NULL,
    role character varying(16) NOT NULL,
    token_hash character varying(64) NOT NULL,
    invited_by character varying(32),
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    accepted_at bigint,
    revoked_at bigint
);


--
-- Name: knex_migrations; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.knex_migrations (
    id integer NOT NULL,
    name character varying(255),
    batch integer,
    migration_time timestamp with time zone
);


--
-- Name: knex_migrations_id_seq; Type: SEQUENCE; Schema: pingmon_fixture; Owner: -
--

CREATE SEQUENCE pingmon_fixture.knex_migrations_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: knex_migrations_id_seq; Type: SEQUENCE OWNED BY; Schema: pingmon_fixture; Owner: -
--

ALTER SEQUENCE pingmon_fixture.knex_migrations_id_seq OWNED BY pingmon_fixture.knex_migrations.id;


--
-- Name: knex_migrations_lock; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.knex_migrations_lock (
    index integer NOT NULL,
    is_locked integer
);


--
-- Name: knex_migrations_lock_index_seq; Type: SEQUENCE; Schema: pingmon_fixture; Owner: -
--

CREATE SEQUENCE pingmon_fixture.knex_migrations_lock_index_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: knex_migrations_lock_index_seq; Type: SEQUENCE OWNED BY; Schema: pingmon_fixture; Owner: -
--

ALTER SEQUENCE pingmon_fixture.knex_migrations_lock_index_seq OWNED BY pingmon_fixture.knex_migrations_lock.index;


--
-- Name: login_attempts; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.login_attempts (
    key character varying(64) NOT NULL,
    attempts integer NOT NULL,
    window_started_at bigint NOT NULL
);


--
-- Name: maintenance_windows; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.maintenance_windows (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    cron character varying(200) NOT NULL,
    timezone character varying(64) NOT NULL,
    duration_ms bigint NOT NULL,
    monitor_ids text,
    created_at bigint NOT NULL
);


--
-- Name: monitors; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.monitors (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    name character varying(200) NOT NULL,
    created_at bigint NOT NULL,
    last_opened_at bigint,
    rule_count integer DEFAULT 0 NOT NULL,
    schedule text,
    start_grace integer DEFAULT 300 NOT NULL,
    max_runtime integer,
    failure_threshold integer DEFAULT 1 NOT NULL,
    recovery_threshold integer DEFAULT 1 NOT NULL,
    renotify_after integer,
    paused boolean DEFAULT false NOT NULL,
    next_expected_at bigint,
    missed_at bigint,
    fail_streak integer DEFAULT 0 NOT NULL,
    ok_streak integer DEFAULT 0 NOT NULL,
    incident_opened_at bigint,
    incident_cause character varying(16),
    remind_at bigint,
    fail_alerts character varying(8) DEFAULT 'every'::character varying NOT NULL,
    incident_failed_runs integer DEFAULT 0 NOT NULL,
    incident_missed_runs integer DEFAULT 0 NOT NULL,
    snoozed_until bigint,
    held_since bigint,
    held_until bigint,
    slug character varying(64) DEFAULT ''::character varying NOT NULL
);


--
-- Name: recovery_codes; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.recovery_codes (
    user_id character varying(32) NOT NULL,
    code_hash character varying(64) NOT NULL,
    created_at bigint NOT NULL,
    used_at bigint
);


--
-- Name: rules; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.rules (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    monitor_id character varying(32) NOT NULL,
    metric character varying(64) NOT NULL,
    op character varying(8) NOT NULL,
    value double precision NOT NULL,
    created_at bigint NOT NULL,
    baseline_runs integer,
    baseline_min_runs integer,
    window_runs integer,
    window_at_least integer
);


--
-- Name: run_logs; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.run_logs (
    monitor_id character varying(32) NOT NULL,
    run_id character varying(64) NOT NULL,
    content text NOT NULL
);


--
-- Name: run_outputs; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.run_outputs (
    monitor_id character varying(32) NOT NULL,
    run_id character varying(64) NOT NULL,
    content text NOT NULL,
    from_offset bigint NOT NULL,
    to_offset bigint NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: runs; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.runs (
    monitor_id character varying(32) NOT NULL,
    id character varying(64) NOT NULL,
    account_id character varying(32) NOT NULL,
    status character varying(16) NOT NULL,
    started_at bigint NOT NULL,
    finished_at bigint,
    duration_ms bigint,
    meta text NOT NULL,
    error_message text,
    has_log boolean NOT NULL,
    matched_rules text,
    timeout_at bigint,
    host character varying(255),
    fingerprint character varying(16),
    redactions integer DEFAULT 0 NOT NULL
);


--
-- Name: second_factors; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.second_factors (
    user_id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    secret character varying(64) NOT NULL,
    created_at bigint NOT NULL,
    enabled_at bigint,
    last_step bigint
);


--
-- Name: sessions; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.sessions (
    id character varying(32) NOT NULL,
    user_id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    ended_at bigint,
    last_used_at bigint,
    address character varying(64),
    user_agent character varying(256)
);


--
-- Name: settings; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.settings (
    key character varying(64) NOT NULL,
    value text NOT NULL
);


--
-- Name: status_page_monitors; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.status_page_monitors (
    account_id character varying(32) NOT NULL,
    monitor_id character varying(32) NOT NULL,
    "position" integer NOT NULL
);


--
-- Name: status_pages; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.status_pages (
    account_id character varying(32) NOT NULL,
    title character varying(200),
    show_error_messages boolean DEFAULT false NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: sweepers; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.sweepers (
    id character varying(32) NOT NULL,
    host character varying(255) NOT NULL,
    pid integer NOT NULL,
    process_started_at bigint NOT NULL,
    interval_ms integer NOT NULL,
    started_at bigint NOT NULL,
    beat_at bigint NOT NULL,
    stopped_at bigint
);


--
-- Name: users; Type: TABLE; Schema: pingmon_fixture; Owner: -
--

CREATE TABLE pingmon_fixture.users (
    id character varying(32) NOT NULL,
    account_id character varying(32) NOT NULL,
    email character varying(254) NOT NULL,
    password_hash text NOT NULL,
    created_at bigint NOT NULL,
    role character varying(16) DEFAULT 'owner'::character varying NOT NULL,
    identity character varying(1024)
);


--
-- Name: knex_migrations id; Type: DEFAULT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.knex_migrations ALTER COLUMN id SET DEFAULT nextval('pingmon_fixture.knex_migrations_id_seq'::regclass);


--
-- Name: knex_migrations_lock index; Type: DEFAULT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.knex_migrations_lock ALTER COLUMN index SET DEFAULT nextval('pingmon_fixture.knex_migrations_lock_index_seq'::regclass);


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.accounts VALUES ('acc_fixture0000000001', 'unlimited', 1767225600000, 'fixture-co');


--
-- Data for Name: alert_deliveries; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.alert_deliveries VALUES ('alert_fixture00000001', 'ch_fixture00000000001', 'delivered', 1, 1767228060000, NULL, NULL, 1767228060200, NULL, 0, 0);
INSERT INTO pingmon_fixture.alert_deliveries VALUES ('alert_fixture00000003', 'ch_fixture00000000001', 'delivered', 1, 1767231060000, NULL, NULL, 1767231060200, NULL, 0, 0);


--
-- Data for Name: alerts; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.alerts VALUES ('alert_fixture00000001', 'acc_fixture0000000001', 'mon_fixture0000000001', 'run_fixture_failed_v2', 'fail', 'failed', 'exit 2', 'disk full', '{}', '[]', 1767228060000, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO pingmon_fixture.alerts VALUES ('alert_fixture00000002', 'acc_fixture0000000001', 'mon_fixture0000000003', NULL, 'missed', 'late', NULL, NULL, '{}', '[]', 1767229560000, 1767229200000, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO pingmon_fixture.alerts VALUES ('alert_fixture00000003', 'acc_fixture0000000001', 'mon_fixture0000000002', 'run_fixture_failed_v8', 'fail', 'failed', 'exit 2', 'disk full', '{}', '[]', 1767231060000, NULL, NULL, NULL, 'no space', NULL, NULL, NULL, NULL, NULL, NULL, NULL);


--
-- Data for Name: api_keys; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.api_keys VALUES ('key_fixture0000000001', 'acc_fixture0000000001', 'cron host', 'pm_fixture', 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 1767225600000, NULL, true, 'ping', NULL, NULL);
INSERT INTO pingmon_fixture.api_keys VALUES ('key_fixture0000000002', 'acc_fixture0000000001', 'read only', 'pm_fixtur2', 'dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd', 1767236400000, NULL, true, 'read', '["mon_fixture0000000001"]', NULL);


--
-- Data for Name: audit_entries; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.audit_entries VALUES ('aud_fixture0000000001', 'acc_fixture0000000001', 1767237000000, 'user', 'usr_fixture0000000001', 'owner@example.com', '192.0.2.1', 'monitor.create', 'monitor', 'mon_fixture0000000004', 'Weekly Report', 'mon_fixture0000000004', NULL);


--
-- Data for Name: channel_monitors; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.channel_monitors VALUES ('ch_fixture00000000001', 'mon_fixture0000000001');


--
-- Data for Name: channels; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.channels VALUES ('ch_fixture00000000001', 'acc_fixture0000000001', 'ops hook', 'webhook', 'https://hooks.example.com/pingmon', NULL, true, true, 1767227520000, 0, NULL, '{}', NULL, NULL);
INSERT INTO pingmon_fixture.channels VALUES ('ch_fixture00000000002', 'acc_fixture0000000001', 'on-call repeat', 'webhook', 'https://oncall.example.com/hook', NULL, false, true, 1767234000000, 0, NULL, '{}', 3600, NULL);


--
-- Data for Name: delivery_attempts; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.delivery_attempts VALUES ('alert_fixture00000001', 'ch_fixture00000000001', 1, 1767228060000, 200, 200, NULL);
INSERT INTO pingmon_fixture.delivery_attempts VALUES ('alert_fixture00000003', 'ch_fixture00000000001', 1, 1767231060000, 200, 200, NULL);


--
-- Data for Name: events; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.events VALUES ('evt_fixture0000000001', 'acc_fixture0000000001', 'mon_fixture0000000003', 'paused', 1767233400000, '{}');


--
-- Data for Name: invites; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.invites VALUES ('inv_fixture0000000001', 'acc_fixture0000000001', 'new@example.com', 'member', 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', 'usr_fixture0000000001', 1767235860000, 1767840660000, NULL, NULL);


--
-- Data for Name: knex_migrations; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.knex_migrations VALUES (1, '001-initial', 1, '2026-12-07 16:12:13.437+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (2, '002-alerts', 2, '2026-12-07 16:12:13.478+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (3, '003-channel-tests', 3, '2026-12-07 16:12:13.494+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (4, '004-schedules', 4, '2026-12-07 16:12:13.51+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (5, '005-retention', 5, '2026-12-07 16:12:13.525+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (6, '006-sessions', 6, '2026-12-07 16:12:13.536+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (7, '007-server-gaps', 7, '2026-12-07 16:12:13.549+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (8, '008-alert-context', 8, '2026-12-07 16:12:13.559+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (9, '009-incident-counts', 9, '2026-12-07 16:12:13.576+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (10, '010-quiet', 10, '2026-12-07 16:12:13.593+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (11, '011-slugs', 11, '2026-12-07 16:12:13.608+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (12, '012-events', 12, '2026-12-07 16:12:13.622+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (13, '013-channel-kinds', 13, '2026-12-07 16:12:13.636+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (14, '014-fingerprints', 14, '2026-12-07 16:12:13.646+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (15, '015-relative-rules', 15, '2026-12-07 16:12:13.666+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (16, '016-users-roles', 16, '2026-12-07 16:12:13.681+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (17, '017-key-scopes', 17, '2026-12-07 16:12:13.703+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (18, '018-audit', 18, '2026-12-07 16:12:13.717+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (19, '019-status-page', 19, '2026-12-07 16:12:13.736+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (20, '020-account-security', 20, '2026-12-07 16:12:13.749+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (21, '021-run-redactions', 21, '2026-12-07 16:12:13.758+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (22, '022-run-outputs', 22, '2026-12-07 16:12:13.772+00');
INSERT INTO pingmon_fixture.knex_migrations VALUES (23, '023-provider-identity', 23, '2026-12-07 16:12:13.782+00');


--
-- Data for Name: knex_migrations_lock; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.knex_migrations_lock VALUES (1, 0);


--
-- Data for Name: login_attempts; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--



--
-- Data for Name: maintenance_windows; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.maintenance_windows VALUES ('mw_fixture00000000001', 'acc_fixture0000000001', '0 2 * * 0', 'Europe/Berlin', 3600000, '["mon_fixture0000000001"]', 1767232200000);


--
-- Data for Name: monitors; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.monitors VALUES ('mon_fixture0000000001', 'acc_fixture0000000001', 'nightly backup', 1767225660000, 1767226800000, 0, NULL, 300, NULL, 1, 1, NULL, false, NULL, NULL, 1, 0, 1767228000000, 'fail', NULL, 'every', 1, 0, NULL, NULL, NULL, 'nightly-backup');
INSERT INTO pingmon_fixture.monitors VALUES ('mon_fixture0000000004', 'acc_fixture0000000001', 'Weekly Report', 1767232800000, NULL, 0, NULL, 300, NULL, 1, 1, NULL, false, NULL, NULL, 0, 0, NULL, NULL, NULL, 'every', 0, 0, NULL, NULL, NULL, 'weekly-report');
INSERT INTO pingmon_fixture.monitors VALUES ('mon_fixture0000000003', 'acc_fixture0000000001', 'hourly sync', 1767228600000, NULL, 0, '{"cron":"0 * * * *","timezone":"UTC"}', 300, NULL, 1, 1, NULL, true, 1767229200000, 1767229500000, 0, 0, NULL, NULL, NULL, 'every', 0, 0, NULL, NULL, NULL, 'hourly-sync');
INSERT INTO pingmon_fixture.monitors VALUES ('mon_fixture0000000002', 'acc_fixture0000000001', 'disk check', 1767227400000, NULL, 2, NULL, 300, NULL, 1, 1, NULL, false, NULL, NULL, 0, 0, NULL, NULL, NULL, 'every', 0, 0, 1924905600000, NULL, NULL, 'disk-check');


--
-- Data for Name: recovery_codes; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.recovery_codes VALUES ('usr_fixture0000000002', 'cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc', 1767238260000, NULL);


--
-- Data for Name: rules; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.rules VALUES ('rule_fixture000000001', 'acc_fixture0000000001', 'mon_fixture0000000002', 'free_gb', '<', 10, 1767227460000, NULL, NULL, NULL, NULL);
INSERT INTO pingmon_fixture.rules VALUES ('rule_fixture000000002', 'acc_fixture0000000001', 'mon_fixture0000000002', 'duration', '>', 2, 1767235200000, 10, 3, NULL, NULL);


--
-- Data for Name: run_logs; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.run_logs VALUES ('mon_fixture0000000001', 'run_fixture_failed_v1', 'disk full
');
INSERT INTO pingmon_fixture.run_logs VALUES ('mon_fixture0000000002', 'run_fixture_failed_v8', 'no space');


--
-- Data for Name: run_outputs; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.run_outputs VALUES ('mon_fixture0000000001', 'run_fixture_running_v22', 'copying…
', 0, 9, 1767239460000);


--
-- Data for Name: runs; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000001', 'run_fixture_ok_v1', 'acc_fixture0000000001', 'success', 1767226200000, 1767226202000, 2000, '{"rows":120}', NULL, false, NULL, NULL, NULL, NULL, 0);
INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000001', 'run_fixture_failed_v1', 'acc_fixture0000000001', 'failed', 1767226800000, 1767226802000, 2000, '{}', 'exit 1', true, NULL, NULL, NULL, NULL, 0);
INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000001', 'run_fixture_failed_v2', 'acc_fixture0000000001', 'failed', 1767228000000, 1767228002000, 2000, '{}', 'exit 2', false, NULL, NULL, NULL, NULL, 0);
INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000002', 'run_fixture_failed_v8', 'acc_fixture0000000001', 'failed', 1767231000000, 1767231002000, 2000, '{}', NULL, true, NULL, NULL, NULL, NULL, 0);
INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000001', 'run_fixture_host_v9', 'acc_fixture0000000001', 'success', 1767231600000, 1767231602000, 2000, '{}', NULL, false, NULL, NULL, 'db-1', NULL, 0);
INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000001', 'run_fixture_fingerprint_v14', 'acc_fixture0000000001', 'failed', 1767234600000, 1767234602000, 2000, '{}', NULL, false, NULL, NULL, NULL, '0123456789abcdef', 0);
INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000001', 'run_fixture_redacted_v21', 'acc_fixture0000000001', 'success', 1767238800000, 1767238802000, 2000, '{}', NULL, false, NULL, NULL, NULL, NULL, 2);
INSERT INTO pingmon_fixture.runs VALUES ('mon_fixture0000000001', 'run_fixture_running_v22', 'acc_fixture0000000001', 'running', 1767239400000, NULL, NULL, '{}', NULL, false, NULL, NULL, NULL, NULL, 0);


--
-- Data for Name: second_factors; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.second_factors VALUES ('usr_fixture0000000002', 'acc_fixture0000000001', 'JBSWY3DPEHPK3PXP', 1767238200000, 1767238260000, NULL);


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.sessions VALUES ('ses_fixture0000000001', 'usr_fixture0000000001', 'acc_fixture0000000001', 1767229800000, 1924909800000, NULL, NULL, NULL, NULL);


--
-- Data for Name: settings; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--



--
-- Data for Name: status_page_monitors; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.status_page_monitors VALUES ('acc_fixture0000000001', 'mon_fixture0000000001', 0);


--
-- Data for Name: status_pages; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.status_pages VALUES ('acc_fixture0000000001', 'Fixture Co', false, 1767237600000);


--
-- Data for Name: sweepers; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.sweepers VALUES ('swp_fixture0000000001', 'pingmon-1', 4242, 1767225600000, 15000, 1767225600000, 1767230400000, 1767230400000);


--
-- Data for Name: users; Type: TABLE DATA; Schema: pingmon_fixture; Owner: -
--

INSERT INTO pingmon_fixture.users VALUES ('usr_fixture0000000001', 'acc_fixture0000000001', 'owner@example.com', 'scrypt$16384$8$1$BwcHBwcHBwcHBwcHBwcHBw$jqNYMZJ6k8yP9UrEwEFdAphyQW3NDqRG8javhwKNA-0', 1767225600000, 'owner', NULL);
INSERT INTO pingmon_fixture.users VALUES ('usr_fixture0000000002', 'acc_fixture0000000001', 'viewer@example.com', 'scrypt$16384$8$1$BwcHBwcHBwcHBwcHBwcHBw$jqNYMZJ6k8yP9UrEwEFdAphyQW3NDqRG8javhwKNA-0', 1767235800000, 'viewer', NULL);


--
-- Name: knex_migrations_id_seq; Type: SEQUENCE SET; Schema: pingmon_fixture; Owner: -
--

SELECT pg_catalog.setval('pingmon_fixture.knex_migrations_id_seq', 23, true);


--
-- Name: knex_migrations_lock_index_seq; Type: SEQUENCE SET; Schema: pingmon_fixture; Owner: -
--

SELECT pg_catalog.setval('pingmon_fixture.knex_migrations_lock_index_seq', 1, true);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);


--
-- Name: alert_deliveries alert_deliveries_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.alert_deliveries
    ADD CONSTRAINT alert_deliveries_pkey PRIMARY KEY (alert_id, channel_id);


--
-- Name: alerts alerts_monitor_id_run_id_event_unique; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.alerts
    ADD CONSTRAINT alerts_monitor_id_run_id_event_unique UNIQUE (monitor_id, run_id, event);


--
-- Name: alerts alerts_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.alerts
    ADD CONSTRAINT alerts_pkey PRIMARY KEY (id);


--
-- Name: api_keys api_keys_key_hash_unique; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.api_keys
    ADD CONSTRAINT api_keys_key_hash_unique UNIQUE (key_hash);


--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);


--
-- Name: audit_entries audit_entries_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.audit_entries
    ADD CONSTRAINT audit_entries_pkey PRIMARY KEY (id);


--
-- Name: channel_monitors channel_monitors_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.channel_monitors
    ADD CONSTRAINT channel_monitors_pkey PRIMARY KEY (channel_id, monitor_id);


--
-- Name: channels channels_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.channels
    ADD CONSTRAINT channels_pkey PRIMARY KEY (id);


--
-- Name: delivery_attempts delivery_attempts_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.delivery_attempts
    ADD CONSTRAINT delivery_attempts_pkey PRIMARY KEY (alert_id, channel_id, attempt);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: invites invites_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.invites
    ADD CONSTRAINT invites_pkey PRIMARY KEY (id);


--
-- Name: invites invites_token_hash_unique; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.invites
    ADD CONSTRAINT invites_token_hash_unique UNIQUE (token_hash);


--
-- Name: knex_migrations_lock knex_migrations_lock_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.knex_migrations_lock
    ADD CONSTRAINT knex_migrations_lock_pkey PRIMARY KEY (index);


--
-- Name: knex_migrations knex_migrations_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.knex_migrations
    ADD CONSTRAINT knex_migrations_pkey PRIMARY KEY (id);


--
-- Name: login_attempts login_attempts_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.login_attempts
    ADD CONSTRAINT login_attempts_pkey PRIMARY KEY (key);


--
-- Name: maintenance_windows maintenance_windows_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.maintenance_windows
    ADD CONSTRAINT maintenance_windows_pkey PRIMARY KEY (id);


--
-- Name: monitors monitors_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.monitors
    ADD CONSTRAINT monitors_pkey PRIMARY KEY (id);


--
-- Name: recovery_codes recovery_codes_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.recovery_codes
    ADD CONSTRAINT recovery_codes_pkey PRIMARY KEY (user_id, code_hash);


--
-- Name: rules rules_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.rules
    ADD CONSTRAINT rules_pkey PRIMARY KEY (id);


--
-- Name: run_logs run_logs_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.run_logs
    ADD CONSTRAINT run_logs_pkey PRIMARY KEY (monitor_id, run_id);


--
-- Name: run_outputs run_outputs_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.run_outputs
    ADD CONSTRAINT run_outputs_pkey PRIMARY KEY (monitor_id, run_id);


--
-- Name: runs runs_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.runs
    ADD CONSTRAINT runs_pkey PRIMARY KEY (monitor_id, id);


--
-- Name: second_factors second_factors_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.second_factors
    ADD CONSTRAINT second_factors_pkey PRIMARY KEY (user_id);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);


--
-- Name: settings settings_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (key);


--
-- Name: status_page_monitors status_page_monitors_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.status_page_monitors
    ADD CONSTRAINT status_page_monitors_pkey PRIMARY KEY (account_id, monitor_id);


--
-- Name: status_pages status_pages_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.status_pages
    ADD CONSTRAINT status_pages_pkey PRIMARY KEY (account_id);


--
-- Name: sweepers sweepers_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.sweepers
    ADD CONSTRAINT sweepers_pkey PRIMARY KEY (id);


--
-- Name: users users_email_unique; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.users
    ADD CONSTRAINT users_email_unique UNIQUE (email);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: accounts_slug; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE UNIQUE INDEX accounts_slug ON pingmon_fixture.accounts USING btree (slug);


--
-- Name: alert_deliveries_channel_id_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX alert_deliveries_channel_id_index ON pingmon_fixture.alert_deliveries USING btree (channel_id);


--
-- Name: alert_deliveries_due; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX alert_deliveries_due ON pingmon_fixture.alert_deliveries USING btree (next_attempt_at) WHERE ((state)::text = 'pending'::text);


--
-- Name: alerts_account_id_created_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX alerts_account_id_created_at_index ON pingmon_fixture.alerts USING btree (account_id, created_at);


--
-- Name: alerts_created_at; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX alerts_created_at ON pingmon_fixture.alerts USING btree (created_at);


--
-- Name: alerts_group; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX alerts_group ON pingmon_fixture.alerts USING btree (group_id) WHERE (group_id IS NOT NULL);


--
-- Name: alerts_incident_key; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX alerts_incident_key ON pingmon_fixture.alerts USING btree (incident_key);


--
-- Name: alerts_monitor_id_created_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX alerts_monitor_id_created_at_index ON pingmon_fixture.alerts USING btree (monitor_id, created_at);


--
-- Name: api_keys_account_id_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX api_keys_account_id_index ON pingmon_fixture.api_keys USING btree (account_id);


--
-- Name: audit_entries_account_at; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX audit_entries_account_at ON pingmon_fixture.audit_entries USING btree (account_id, at, id);


--
-- Name: audit_entries_at; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX audit_entries_at ON pingmon_fixture.audit_entries USING btree (at);


--
-- Name: channel_monitors_monitor_id_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX channel_monitors_monitor_id_index ON pingmon_fixture.channel_monitors USING btree (monitor_id);


--
-- Name: channels_account_id_created_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX channels_account_id_created_at_index ON pingmon_fixture.channels USING btree (account_id, created_at);


--
-- Name: events_at; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX events_at ON pingmon_fixture.events USING btree (at);


--
-- Name: events_monitor_at; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX events_monitor_at ON pingmon_fixture.events USING btree (monitor_id, at, id);


--
-- Name: invites_account_id_created_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX invites_account_id_created_at_index ON pingmon_fixture.invites USING btree (account_id, created_at);


--
-- Name: login_attempts_window_started_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX login_attempts_window_started_at_index ON pingmon_fixture.login_attempts USING btree (window_started_at);


--
-- Name: maintenance_windows_account_id_created_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX maintenance_windows_account_id_created_at_index ON pingmon_fixture.maintenance_windows USING btree (account_id, created_at);


--
-- Name: monitors_account_id_created_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX monitors_account_id_created_at_index ON pingmon_fixture.monitors USING btree (account_id, created_at);


--
-- Name: monitors_account_slug; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE UNIQUE INDEX monitors_account_slug ON pingmon_fixture.monitors USING btree (account_id, slug);


--
-- Name: monitors_held; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX monitors_held ON pingmon_fixture.monitors USING btree (held_until) WHERE (held_until IS NOT NULL);


--
-- Name: monitors_missed; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX monitors_missed ON pingmon_fixture.monitors USING btree (missed_at) WHERE (missed_at IS NOT NULL);


--
-- Name: monitors_remind; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX monitors_remind ON pingmon_fixture.monitors USING btree (remind_at) WHERE (remind_at IS NOT NULL);


--
-- Name: rules_monitor_id_created_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX rules_monitor_id_created_at_index ON pingmon_fixture.rules USING btree (monitor_id, created_at);


--
-- Name: runs_fingerprint; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX runs_fingerprint ON pingmon_fixture.runs USING btree (monitor_id, fingerprint, started_at);


--
-- Name: runs_monitor_id_started_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX runs_monitor_id_started_at_index ON pingmon_fixture.runs USING btree (monitor_id, started_at);


--
-- Name: runs_open; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX runs_open ON pingmon_fixture.runs USING btree (monitor_id, started_at) WHERE ((status)::text = 'running'::text);


--
-- Name: runs_started_at; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX runs_started_at ON pingmon_fixture.runs USING btree (started_at);


--
-- Name: runs_successes; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX runs_successes ON pingmon_fixture.runs USING btree (monitor_id, started_at) WHERE ((status)::text = 'success'::text);


--
-- Name: runs_timeout; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX runs_timeout ON pingmon_fixture.runs USING btree (timeout_at) WHERE (((status)::text = 'running'::text) AND (timeout_at IS NOT NULL));


--
-- Name: sessions_expires_at_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX sessions_expires_at_index ON pingmon_fixture.sessions USING btree (expires_at);


--
-- Name: sessions_user_id_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX sessions_user_id_index ON pingmon_fixture.sessions USING btree (user_id);


--
-- Name: status_page_monitors_monitor_id_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX status_page_monitors_monitor_id_index ON pingmon_fixture.status_page_monitors USING btree (monitor_id);


--
-- Name: users_account_id_index; Type: INDEX; Schema: pingmon_fixture; Owner: -
--

CREATE INDEX users_account_id_index ON pingmon_fixture.users USING btree (account_id);


--
-- Name: alert_deliveries alert_deliveries_alert_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.alert_deliveries
    ADD CONSTRAINT alert_deliveries_alert_id_foreign FOREIGN KEY (alert_id) REFERENCES pingmon_fixture.alerts(id) ON DELETE CASCADE;


--
-- Name: alert_deliveries alert_deliveries_channel_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.alert_deliveries
    ADD CONSTRAINT alert_deliveries_channel_id_foreign FOREIGN KEY (channel_id) REFERENCES pingmon_fixture.channels(id) ON DELETE CASCADE;


--
-- Name: alerts alerts_monitor_id_run_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.alerts
    ADD CONSTRAINT alerts_monitor_id_run_id_foreign FOREIGN KEY (monitor_id, run_id) REFERENCES pingmon_fixture.runs(monitor_id, id) ON DELETE CASCADE;


--
-- Name: api_keys api_keys_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.api_keys
    ADD CONSTRAINT api_keys_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: audit_entries audit_entries_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.audit_entries
    ADD CONSTRAINT audit_entries_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: channel_monitors channel_monitors_channel_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.channel_monitors
    ADD CONSTRAINT channel_monitors_channel_id_foreign FOREIGN KEY (channel_id) REFERENCES pingmon_fixture.channels(id) ON DELETE CASCADE;


--
-- Name: channel_monitors channel_monitors_monitor_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.channel_monitors
    ADD CONSTRAINT channel_monitors_monitor_id_foreign FOREIGN KEY (monitor_id) REFERENCES pingmon_fixture.monitors(id) ON DELETE CASCADE;


--
-- Name: channels channels_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.channels
    ADD CONSTRAINT channels_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: delivery_attempts delivery_attempts_alert_id_channel_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.delivery_attempts
    ADD CONSTRAINT delivery_attempts_alert_id_channel_id_foreign FOREIGN KEY (alert_id, channel_id) REFERENCES pingmon_fixture.alert_deliveries(alert_id, channel_id) ON DELETE CASCADE;


--
-- Name: events events_monitor_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.events
    ADD CONSTRAINT events_monitor_id_foreign FOREIGN KEY (monitor_id) REFERENCES pingmon_fixture.monitors(id) ON DELETE CASCADE;


--
-- Name: invites invites_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.invites
    ADD CONSTRAINT invites_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: maintenance_windows maintenance_windows_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.maintenance_windows
    ADD CONSTRAINT maintenance_windows_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: monitors monitors_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.monitors
    ADD CONSTRAINT monitors_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: recovery_codes recovery_codes_user_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.recovery_codes
    ADD CONSTRAINT recovery_codes_user_id_foreign FOREIGN KEY (user_id) REFERENCES pingmon_fixture.users(id) ON DELETE CASCADE;


--
-- Name: rules rules_monitor_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.rules
    ADD CONSTRAINT rules_monitor_id_foreign FOREIGN KEY (monitor_id) REFERENCES pingmon_fixture.monitors(id) ON DELETE CASCADE;


--
-- Name: run_logs run_logs_monitor_id_run_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.run_logs
    ADD CONSTRAINT run_logs_monitor_id_run_id_foreign FOREIGN KEY (monitor_id, run_id) REFERENCES pingmon_fixture.runs(monitor_id, id) ON DELETE CASCADE;


--
-- Name: run_outputs run_outputs_monitor_id_run_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.run_outputs
    ADD CONSTRAINT run_outputs_monitor_id_run_id_foreign FOREIGN KEY (monitor_id, run_id) REFERENCES pingmon_fixture.runs(monitor_id, id) ON DELETE CASCADE;


--
-- Name: runs runs_monitor_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.runs
    ADD CONSTRAINT runs_monitor_id_foreign FOREIGN KEY (monitor_id) REFERENCES pingmon_fixture.monitors(id) ON DELETE CASCADE;


--
-- Name: second_factors second_factors_user_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.second_factors
    ADD CONSTRAINT second_factors_user_id_foreign FOREIGN KEY (user_id) REFERENCES pingmon_fixture.users(id) ON DELETE CASCADE;


--
-- Name: sessions sessions_user_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.sessions
    ADD CONSTRAINT sessions_user_id_foreign FOREIGN KEY (user_id) REFERENCES pingmon_fixture.users(id) ON DELETE CASCADE;


--
-- Name: status_page_monitors status_page_monitors_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.status_page_monitors
    ADD CONSTRAINT status_page_monitors_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: status_page_monitors status_page_monitors_monitor_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.status_page_monitors
    ADD CONSTRAINT status_page_monitors_monitor_id_foreign FOREIGN KEY (monitor_id) REFERENCES pingmon_fixture.monitors(id) ON DELETE CASCADE;


--
-- Name: status_pages status_pages_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.status_pages
    ADD CONSTRAINT status_pages_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- Name: users users_account_id_foreign; Type: FK CONSTRAINT; Schema: pingmon_fixture; Owner: -
--

ALTER TABLE ONLY pingmon_fixture.users
    ADD CONSTRAINT users_account_id_foreign FOREIGN KEY (account_id) REFERENCES pingmon_fixture.accounts(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


