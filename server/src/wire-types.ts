import type Joi from 'joi';

// The SDK's wire types written from the joi schemas the server answers and validates (scripts/wire-types.mjs writes
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
  /** A value whose schema depends on another key's (Joi.when): any of its branches. */
  whens?: Array<{ then?: Node; otherwise?: Node }>;
  dependencies?: Array<{ rel: string; key?: string; peers: string[] }>;
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
      case 'date':
        return 'string';
      case 'array': {
        const items = (node.items ?? []).map((item) => type(item)).join(' | ') || 'unknown';
        return /^\w+$/.test(items) ? `${items}[]` : `Array<${items}>`;
      }
      case 'alternatives':
        return (node.matches ?? []).map((match) => type(match.schema)).join(' | ');
      case 'object':
        return objectType(node);
      default: {
        const branches = branchesOf(node).map((branch) => type(branch));
        return [...new Set(branches)].join(' | ') || 'unknown';
      }
    }
  }

  /** An object; with xor, one object per peer given (and the keys `without` forbids beside it left out). */
  function objectType(node: Node): string {
    const keys = Object.entries(node.keys ?? {}).filter(([, child]) => presenceOf(child) !== 'forbidden');
    if (keys.length === 0) {
      const values = (node.patterns ?? []).map((pattern) => type(pattern.rule));
      return `Record<string, ${values.join(' | ') || 'unknown'}>`;
    }
    const xor = node.dependencies?.find((dependency) => dependency.rel === 'xor');
    if (!xor) return objectBody(node, keys);
    return xor.peers
      .map((peer) => {
        const forbidden = new Set(xor.peers.filter((other) => other !== peer));
        for (const { rel, key, peers } of node.dependencies ?? []) {
          if (rel === 'without' && key === peer) for (const other of peers) forbidden.add(other);
        }
        const given = keys.filter(([key]) => !forbidden.has(key));
        return objectBody(node, given, peer);
      })
      .join(' | ');
  }

  function objectBody(node: Node, keys: Array<[string, Node]>, requiredKey?: string): string {
    const required = node.preferences?.presence === 'required';
    const lines = keys.map(([key, child]) => {
      const presence = key === requiredKey ? 'required' : presenceOf(child);
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
    const single = node.type === 'object' && body.startsWith('{') && !node.dependencies?.some((d) => d.rel === 'xor');
    const declaration = single ? `interface ${name} ${body}` : `type ${name} = ${body};`;
    done.set(name, `${doc(node)}export ${declaration}`);
  }
  const imports = [...unions].sort().join(', ');
  return [
    '// Written by server/scripts/wire-types.mjs from the joi schemas of the server: do not edit.',
    ...(imports ? [`import type { ${imports} } from '${UNIONS_FROM}';`] : []),
    ...[...done.keys()].sort().map((name) => done.get(name)!),
  ].join('\n\n');
}

function branchesOf(node: Node): Node[] {
  return (node.whens ?? []).flatMap((when) => [when.then, when.otherwise]).filter((branch) => branch !== undefined);
}

/** A value that depends on another key is required where each of its branches is. */
function presenceOf(node: Node): string | undefined {
  const branches = branchesOf(node);
  if (branches.length > 0 && branches.every((branch) => branch.flags?.presence === 'required')) return 'required';
  return node.flags?.presence;
}

function withNull(type: string, node: Node): string {
  return node.allow?.includes(null) && !node.flags?.only ? `${type} | null` : type;
}

function doc(node: Node): string {
  const text = node.flags?.description;
  return text ? `/** ${text.replaceAll('*/', '*\\/')} */\n` : '';
}
