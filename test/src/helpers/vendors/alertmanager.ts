import { isHttpUrl, isObject, isTimestamp, jsonRequest, unknownKeys, urlOf } from './json-checks.js';
import type { VendorRequest } from './json-checks.js';

// Alertmanager's API v2 (its OpenAPI spec, api/v2/openapi.yaml): POST /api/v2/alerts takes postableAlerts, an array of
// {labels, annotations, startsAt, endsAt, generatorURL}; it refuses an alert whose label or annotation names are not
// Prometheus label names, that has no label, or that ends before it starts.
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function checkAlertmanager(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (!urlOf(req).pathname.endsWith('/api/v2/alerts'))
    problems.push(`path ${urlOf(req).pathname} is not …/api/v2/alerts`);
  const body = jsonRequest(req, problems);
  if (body === undefined) return problems;
  if (!Array.isArray(body)) return [...problems, 'the body is not an array of alerts'];
  if (body.length === 0) problems.push('the body has no alert');
  body.forEach((alert: unknown, i) => checkAlert(alert, `body[${i}]`, problems));
  return problems;
}

function checkAlert(alert: unknown, where: string, problems: string[]): void {
  if (!isObject(alert)) return void problems.push(`${where} is not an object`);
  unknownKeys(problems, alert, ['labels', 'annotations', 'startsAt', 'endsAt', 'generatorURL'], where);
  checkLabelSet(alert.labels, `${where}.labels`, problems);
  if (isObject(alert.labels) && Object.keys(alert.labels).length === 0) problems.push(`${where}.labels is empty`);
  if (alert.annotations !== undefined) checkLabelSet(alert.annotations, `${where}.annotations`, problems);
  for (const key of ['startsAt', 'endsAt'] as const) {
    if (alert[key] !== undefined && !isTimestamp(alert[key])) problems.push(`${where}.${key} is not a date-time`);
  }
  if (isTimestamp(alert.startsAt) && isTimestamp(alert.endsAt)) {
    if (Date.parse(alert.endsAt as string) < Date.parse(alert.startsAt as string)) {
      problems.push(`${where} ends before it starts`);
    }
  }
  if (alert.generatorURL !== undefined && !isHttpUrl(alert.generatorURL)) {
    problems.push(`${where}.generatorURL is not a URL`);
  }
}

function checkLabelSet(set: unknown, where: string, problems: string[]): void {
  if (!isObject(set)) return void problems.push(`${where} is not an object of names to strings`);
  for (const [name, value] of Object.entries(set)) {
    if (!LABEL_NAME.test(name)) problems.push(`${where}: "${name}" is not a label name`);
    if (typeof value !== 'string') problems.push(`${where}.${name} is not a string`);
    else if (value === '') problems.push(`${where}.${name} is empty (the same as no ${name})`);
  }
}
