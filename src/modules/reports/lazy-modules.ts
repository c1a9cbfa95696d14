import { createRequire } from 'node:module';
import type ExcelJSModule from 'exceljs';
import type PDFDocumentClass from 'pdfkit';

const require = createRequire(import.meta.url);
let excel: typeof ExcelJSModule | undefined;
let pdf: typeof PDFDocumentClass | undefined;

/**
 * The report libraries are loaded by the first document written, not when a process starts (issue 19): ExcelJS
 * alone adds about 40 MB to every process that imports it, and most processes (API nodes, CLI commands) never
 * write a workbook. Both are CommonJS, so a synchronous require keeps the writers' code synchronous.
 */
export function excelJs(): typeof ExcelJSModule {
  excel ??= require('exceljs') as typeof ExcelJSModule;
  return excel;
}

export function pdfKit(): typeof PDFDocumentClass {
  pdf ??= require('pdfkit') as typeof PDFDocumentClass;
  return pdf;
}
