import { isValidNaturalPersonNif, isValidNif } from 'nif-dni-nie-cif-validation';

/**
 * Spanish identity numbers (docs/registry.md, Company and worker identity). The NIF, NIE and CIF control
 * characters are checked by the npm package nif-dni-nie-cif-validation; the Social Security numbers (NAF, CCC)
 * by their mod-97 control digits, which no maintained package checks.
 */

/** The number as written on a document, without spaces, dots, hyphens or slashes, in capitals. */
export const normalizeIdentity = (text: string) => text.replace(/[\s.\-/]/g, '').toUpperCase();

/** A company's tax id: a CIF (a legal entity) or a person's NIF (DNI or NIE, for a self-employed employer). */
export const isTaxId = (normalized: string) => isValidNif(normalized);

/** A worker's national id: a DNI or an NIE with its control letter. */
export const isNationalId = (normalized: string) => isValidNaturalPersonNif(normalized);

/**
 * A Social Security number with its two control digits: province (2 digits), number, control (2 digits). The
 * control is (province and number as one number) mod 97, where a number below 10,000,000 counts as
 * province × 10,000,000 + number (the Tesorería General's rule).
 */
function socialSecurityControl(digits: string, numberLength: number): boolean {
  if (!new RegExp(`^\\d{${numberLength + 4}}$`).test(digits)) return false;
  const province = Number(digits.slice(0, 2));
  const number = Number(digits.slice(2, 2 + numberLength));
  const control = Number(digits.slice(2 + numberLength));
  const base = number < 10_000_000 ? province * 10_000_000 + number : Number(`${province}${number}`);
  return base % 97 === control;
}

/** A worker's Social Security affiliation number (NAF): 12 digits. */
export const isNaf = (normalized: string) => socialSecurityControl(normalized, 8);

/** A work centre's contribution account code (código cuenta de cotización, CCC): 11 digits. */
export const isCcc = (normalized: string) => socialSecurityControl(normalized, 7);

/**
 * What is wrong with a Social Security number (NAF, 12 digits) or contribution account code (CCC, 11 digits), in
 * words a person who typed it can act on (issue 39: "(11 cifras)" after eleven digits were typed told nothing):
 * the count of digits, or the control digits. Null when it is valid.
 */
export function socialSecurityProblem(normalized: string, kind: 'naf' | 'ccc'): string | null {
  const digits = kind === 'naf' ? 12 : 11;
  if (!/^\d+$/.test(normalized)) return 'must have digits only';
  if (normalized.length !== digits) {
    return kind === 'naf' ? 'must have 12 digits' : 'must have 11 digits';
  }
  const valid = kind === 'naf' ? isNaf(normalized) : isCcc(normalized);
  return valid ? null : 'has wrong control digits (the last two do not match the others)';
}
