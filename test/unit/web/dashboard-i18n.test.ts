import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { validationErrors } from '../../../src/platform/errors.ts';
import { EN_PLURALS } from '../../../web/shared/locales/en.ts';
import { es } from '../../../web/shared/locales/es.ts';
import {
  SPANISH_FIELD_NAMES,
  spanishDetail,
  spanishFieldMessage,
} from '../../../web/shared/locales/messages.ts';
import { dashboardKeys, variables } from '../../helpers/dashboard-keys.ts';

/**
 * The dashboard speaks Spanish and English (issue 17): every text of its source has its Spanish, with the same
 * variables; plurals have both forms; and the service's messages (English, the API's language) are put into
 * Spanish by the dashboard's rules: every validator message and every field message the modules write.
 */
const keys = dashboardKeys();
const isPlural = (key: string) => variables(key).includes('count');

describe('the Spanish catalogue', () => {
  it('translates every key of the source, plurals in both forms', () => {
    const missing = [...keys].flatMap(([key, file]) =>
      isPlural(key)
        ? [`${key}_one`, `${key}_other`].filter((form) => !(form in es)).map((form) => `${form} (${file})`)
        : key in es
          ? []
          : [`${key} (${file})`],
    );
    expect(missing).toEqual([]);
  });

  it('holds no key the source no longer uses', () => {
    const stale = Object.keys(es).filter((key) => !keys.has(key.replace(/_(one|other)$/, '')));
    expect(stale).toEqual([]);
  });

  it('keeps each key’s variables (a singular may leave the count out)', () => {
    const wrong = Object.entries(es).flatMap(([key, text]) => {
      const base = key.replace(/_(one|other)$/, '');
      const expected = variables(base);
      const actual = variables(text);
      const ok =
        JSON.stringify(actual) === JSON.stringify(expected) ||
        (key.endsWith('_one') &&
          JSON.stringify(actual) === JSON.stringify(expected.filter((v) => v !== 'count')));
      return ok ? [] : [`${key}: ${actual.join(',')} ≠ ${expected.join(',')}`];
    });
    expect(wrong).toEqual([]);
  });

  it('gives English the singular of every plural', () => {
    const plurals = [...keys.keys()].filter(isPlural);
    expect(plurals.filter((key) => !(`${key}_one` in EN_PLURALS))).toEqual([]);
    expect(Object.keys(EN_PLURALS).filter((key) => !plurals.includes(key.replace(/_one$/, '')))).toEqual([]);
  });
});

/** A validator error as AJV reports it. */
const ajv = (keyword: string, params: Record<string, unknown>, path = '/field'): ErrorObject => ({
  keyword,
  params,
  instancePath: path,
  schemaPath: `#/properties/field/${keyword}`,
});

describe('the service’s messages in Spanish', () => {
  it('covers every message the validator produces', () => {
    const errors = [
      ajv('minLength', { limit: 1 }),
      ajv('minLength', { limit: 3 }),
      ajv('maxLength', { limit: 100 }),
      ajv('minItems', { limit: 1 }),
      ajv('maxItems', { limit: 5 }),
      ajv('uniqueItems', {}),
      ajv('minimum', { limit: 0 }),
      ajv('maximum', { limit: 366 }),
      ajv('exclusiveMinimum', { limit: 0 }),
      ajv('exclusiveMaximum', { limit: 10 }),
      ajv('multipleOf', { multipleOf: 0.5 }),
      ajv('minProperties', { limit: 1 }),
      ajv('type', { type: 'integer' }),
      ajv('type', { type: 'string,null' }),
      ajv('format', { format: 'date' }),
      ajv('format', { format: 'email' }),
      ajv('format', { format: 'date-time' }),
      ajv('pattern', { pattern: '^x' }),
      ajv('const', { allowedValue: 'x' }),
      ajv('enum', { allowedValues: ['a', 'b'] }),
      ajv('required', { missingProperty: 'name' }, ''),
      ajv('additionalProperties', { additionalProperty: 'theme' }, ''),
    ];
    const messages = errors.flatMap((error) => Object.values(validationErrors([error], 'body')).flat());
    expect(messages.length).toBe(errors.length);
    expect(messages.filter((message) => spanishFieldMessage(message) === null)).toEqual([]);
    expect(spanishFieldMessage('must have at least 12 characters')).toBe('debe tener al menos 12 caracteres');
    expect(spanishFieldMessage('must be one of: es, en, null')).toBe('debe ser uno de: es, en, vacío');
  });

  it('covers every field message the modules write', () => {
    const root = new URL('../../../src/', import.meta.url).pathname;
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? files(join(dir, entry.name))
          : entry.name.endsWith('.ts')
            ? [join(dir, entry.name)]
            : [],
      );
    // invalid({ field: 'message' }) and errors: { field: ['message'] }, a template's ${…} standing for a value.
    // (Not the values some problems carry under `errors`: a scope's name, a month, an id, a role, a reason's code,
    // an instant.)
    const pattern =
      /(?:invalid\(\{|errors: \{)\s*(?!required_scope|closed_month|conflicting_absence_id|role\b|reason\b|resets_at\b)(?:'[^']+'|\w+): \[?\s*(['`])((?:(?!\1).)+)\1/g;
    const messages = files(root).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(pattern)].map((match) =>
        (match[2] ?? '').replace(/\$\{[^}]+\}/g, '12'),
      ),
    );
    expect(messages.length).toBeGreaterThan(15);
    expect(messages.filter((message) => spanishFieldMessage(message) === null)).toEqual([]);
  });

  it('puts the details an HR administrator meets into Spanish', () => {
    expect(spanishDetail('The month 2026-10 is already closed.')).toBe('El mes 2026-10 ya está cerrado.');
    expect(
      spanishDetail('The range overlaps absence 0192 of the same employee, which is requested or approved.'),
    ).toMatch(/^Las fechas se solapan/);
    expect(spanishDetail('The absence is approved; it can be approved only while requested.')).toBe(
      'La ausencia está aprobada; solo puede aprobarse mientras esté solicitada.',
    );
    expect(spanishDetail('The email or the password is wrong.')).toBe(
      'El correo o la contraseña no son correctos.',
    );
    expect(spanishDetail('Something nobody wrote a rule for.')).toBeNull();
  });

  it('names the fields the dashboard edits', () => {
    const source = new URL('../../../web/dashboard/src/screens/', import.meta.url).pathname;
    const names = readdirSync(source).flatMap((file) =>
      [...readFileSync(join(source, file), 'utf8').matchAll(/name="([^"]+)"/g)].map(
        (match) =>
          (match[1] ?? '')
            .split('.')
            .at(-1)
            ?.replace(/\[\d+\]$/, '') ?? '',
      ),
    );
    expect(names.length).toBeGreaterThan(30);
    expect([...new Set(names)].filter((name) => !SPANISH_FIELD_NAMES[name])).toEqual([]);
  });
});
