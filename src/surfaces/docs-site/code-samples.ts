/**
 * A code sample per operation for the API reference (issue 41): a curl command and the same call through the SDK,
 * made from the description itself (its paths, parameters and request examples), so that they cannot drift from
 * it. Redoc shows them from each operation's `x-codeSamples`; reference.js puts them there.
 */
type Json = Record<string, unknown>;
export type Parameter = { name: string; in: string; required?: boolean; schema?: Json };
type Operation = {
  operationId?: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: Json;
  responses?: Record<string, Json>;
};
export type CodeSample = { lang: string; label: string; source: string };

const BASE = 'https://jornada.example.com';

/** A value of the description, its `$ref` followed (to the end of a chain of them). */
export function resolve<T>(document: object, value: unknown): T {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return value as T;
  const [, ...segments] = String((value as { $ref: string }).$ref).split('/');
  let node: unknown = document;
  for (const segment of segments) node = (node as Json | undefined)?.[segment];
  return resolve<T>(document, node);
}

/**
 * What a call of an operation is made of, as the SDK's methods and the samples both read it: the path's
 * parameters, the query's, whether it takes an Idempotency-Key, and whether it is a listing (it takes a cursor).
 */
export function callShape(document: object, url: string, operation: { parameters?: unknown[] }) {
  const parameters = (operation.parameters ?? []).map((parameter) => resolve<Parameter>(document, parameter));
  const query = parameters.filter((parameter) => parameter.in === 'query');
  return {
    pathNames: [...url.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
    query,
    idempotent: parameters.some(
      (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
    ),
    paginated: query.some((parameter) => parameter.name === 'cursor'),
  };
}

/** A shell variable for a path parameter: `{deliveryId}` is `$DELIVERY_ID`. */
const shellName = (name: string) => `$${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;

/** A plausible value of a required query parameter, from its schema. */
function queryValue(parameter: Parameter): string {
  const schema = parameter.schema ?? {};
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.format === 'date') return parameter.name === 'to' ? '2026-11-30' : '2026-11-01';
  if (schema.format === 'date-time')
    return parameter.name === 'to' ? '2026-12-01T00:00:00Z' : '2026-11-01T00:00:00Z';
  if (schema.type === 'integer') return parameter.name === 'year' ? '2026' : '100';
  return parameter.name === 'month' ? '2026-11' : parameter.name;
}

/** The first example of the JSON request body, if the operation has one. */
function bodyExample(document: Json, operation: Operation): unknown {
  const body = resolve<{ content?: Record<string, { examples?: Json; example?: unknown }> } | undefined>(
    document,
    operation.requestBody,
  );
  const media = body?.content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first === undefined ? {} : (resolve<{ value?: unknown }>(document, first).value ?? {});
}

/** JSON as a TypeScript object literal: keys that are identifiers unquoted. */
const literal = (value: unknown) =>
  JSON.stringify(value, null, 2).replace(/^(\s*)"([A-Za-z_][A-Za-z0-9_]*)":/gm, '$1$2:');

/** The samples of one operation. */
export function operationSamples(
  document: Json,
  url: string,
  verb: string,
  operation: Operation,
): CodeSample[] {
  const id = operation.operationId ?? '';
  const { pathNames, query: queryParameters, idempotent, paginated } = callShape(document, url, operation);
  const required = queryParameters.filter((parameter) => parameter.required);
  const body = bodyExample(document, operation);
  const isPublic = id === 'downloadReport';

  const query = required.map((parameter) => `${parameter.name}=${encodeURIComponent(queryValue(parameter))}`);
  const address = `${BASE}${url.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'month' ? '2026-10' : shellName(name)))}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const curl = [
    isPublic
      ? 'curl -o report.csv "$DOWNLOAD_URL" # the report\'s download_url: single use, 5 minutes'
      : `curl${verb === 'get' ? '' : ` -X ${verb.toUpperCase()}`} "${address}"`,
    ...(isPublic ? [] : ['-H "Authorization: Bearer $JORNADA_API_KEY"']),
    ...(idempotent ? ['-H "Idempotency-Key: $(uuidgen)"'] : []),
    ...(body === undefined
      ? []
      : [
          '-H "Content-Type: application/json"',
          `-d '${JSON.stringify(body, null, 2).replace(/'/g, "'\\''")}'`,
        ]),
  ].join(' \\\n  ');

  const args = [
    ...pathNames.map((name) => (name === 'month' ? "'2026-10'" : name)),
    ...(required.length > 0
      ? [
          `{ ${required
            .map((parameter) => {
              const value = queryValue(parameter);
              return `${parameter.name}: ${parameter.schema?.type === 'integer' ? value : JSON.stringify(value)}`;
            })
            .join(', ')} }`,
        ]
      : []),
    ...(body === undefined ? [] : [literal(body)]),
  ];
  const call = `jornada.${id}(${args.join(', ')})`;
  const sdk = isPublic
    ? `const file = await jornada.downloadReport(report); // a completed report\nfor await (const chunk of file.stream) process.stdout.write(chunk);`
    : paginated
      ? `for await (const item of ${call}) {\n  console.log(item);\n}`
      : Object.keys(operation.responses ?? {}).includes('204')
        ? `await ${call};`
        : `const result = await ${call};\nconsole.log(result, result.lastResponse.requestId);`;
  return [
    { lang: 'Shell', label: 'curl', source: curl },
    { lang: 'TypeScript', label: 'SDK', source: sdk },
  ];
}

/** Every operation's samples, by operationId. */
export function codeSamples(document: Json): Record<string, CodeSample[]> {
  const samples: Record<string, CodeSample[]> = {};
  for (const [url, verbs] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [verb, operation] of Object.entries(verbs)) {
      if (typeof operation !== 'object' || !operation.operationId) continue;
      samples[operation.operationId] = operationSamples(document, url, verb, operation);
    }
  }
  return samples;
}
