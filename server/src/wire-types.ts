import type Joi from 'joi';

// The SDK's wire types written from the joi schemas the server answers and reads (scripts/wire-types.mjs writes
// sdk/src/wire-types.ts; a test fails while that file is stale): one source, and no joi in the SDK.

type Node = Joi.Description & {
  flags?: { id?: string; description?: string; presence?: string; only?: boolean };
  preferences?: { presence?: string };
  keys?: Record<string, Node>;
  patterns?: Array<{ rule: Node }>;
  items?: Node[];
  matches?: Array<{ schema: Node }>;
  allow?: unknown[];
  metas?: Array<{ type?: string }>;
};

/** Where a named string union comes from: `.meta({ type })` on a schema names the SDK type of its values. */
const UNIONS_FROM = './types.js';

/** The TypeScript declarations of `schemas` and of every schema with an id that they hold, by that id. */
export function renderWireTypes(schemas: Joi.Schema[]): string {
  const pending = schemas.map((schema) => schema.describe() as Node);
  const done = new Map<string, string>();
  const unions = new Set<string>();

  function type(node: Node): string {
    const id = node.flags?.id;
    if (id) {
      pending.push({ ...node });
      return withNull(id, node);
    }
    const named = node.metas?.find((meta) => meta.type)?.type;
    if (named) {
      unions.add(named);
      return node.allow?.includes(null) ? `${named} | null` : named;
    }
    return withNull(bare(node), node);
  }

  function bare(node: Node): string {
    if (node.flags?.only) return (node.allow ?? []).map((value) => JSON.stringify(value)).join(' | ');
    switch (node.type) {
      case 'string':
      case 'number':
      case 'boolean':
        return node.type;
      case 'array': {
        const items = (node.items ?? []).map((item) => type(item)).join(' | ') || 'unknown';
        return /^\w+$/.test(items) ? `${items}[]` : `Array<${items}>`;
      }
      case 'alternatives':
        return (node.matches ?? []).map((match) => type(match.schema)).join(' | ');
      case 'object':
        return objectType(node);
      default:
        return 'unknown';
    }
  }

  function objectType(node: Node): string {
    const keys = Object.entries(node.keys ?? {});
    if (keys.length === 0) {
      const values = (node.patterns ?? []).map((pattern) => type(pattern.rule));
      return `Record<string, ${values.join(' | ') || 'unknown'}>`;
    }
    const required = node.preferences?.presence === 'required';
    const lines = keys.map(([key, child]) => {
      const presence = child.flags?.presence;
      const optional = presence === 'optional' || (!required && presence !== 'required');
      return `${doc(child)}${key}${optional ? '?' : ''}: ${type(child)};`;
    });
    return `{\n${lines.join('\n')}\n}`;
  }

  while (pending.length > 0) {
    const node = pending.shift()!;
    const name = node.flags?.id;
    if (!name) throw new Error(`A wire type is named by its schema's id: ${JSON.stringify(node).slice(0, 80)}`);
    if (done.has(name)) continue;
    const body = bare(node);
    const declaration = body.startsWith('{') ? `interface ${name} ${body}` : `type ${name} = ${body};`;
    done.set(name, `${doc(node)}export ${declaration}`);
  }
  const imports = [...unions].sort().join(', ');
  return [
    '// Written by server/scripts/wire-types.mjs from the joi schemas of the server: do not edit.',
    ...(imports ? [`import type { ${imports} } from '${UNIONS_FROM}';`] : []),
    ...[...done.keys()].sort().map((name) => done.get(name)!),
  ].join('\n\n');
}

function withNull(type: string, node: Node): string {
  return node.allow?.includes(null) && !node.flags?.only ? `${type} | null` : type;
}

function doc(node: Node): string {
  const text = node.flags?.description;
  return text ? `/** ${text.replaceAll('*/', '*\\/')} */\n` : '';
}
