import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { pdfKit } from './lazy-modules.ts';
import { hhmm } from './report-rows.ts';
import {
  correctionLine,
  DOCUMENT_COLUMNS,
  DOCUMENT_VERSION,
  type DocumentColumn,
  type DocumentLocale,
  dayCells,
  documentHeading,
  generatedText,
  LABELS,
  type Labels,
  limitLine,
  othersLine,
  type WorkerDocument,
} from './worker-documents.ts';

/**
 * The worker's monthly registry document as a PDF (pdfkit; docs/decisions/0010-registry-documents.md): A4, the
 * DejaVu Sans fonts embedded (from the npm package dejavu-fonts-ttf), Spanish by default. One worker per page
 * group: the heading (company, tax id, work centre and CCC, worker, national id, NAF, month, time zone), a row per
 * day, the month's totals, the corrections with who approved them, signature boxes, and the generation time,
 * document version and registry chain head in the footer.
 */
const require = createRequire(import.meta.url);
const REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** The day table's column widths, in points (515 in all: A4 less the margins). */
const WIDTHS: Record<DocumentColumn, number> = {
  // Wide enough for the date and its weekday on one line (`2026-10-01 jue`, jornada-registro-4 on).
  day: 74,
  intervals: 100,
  mode: 62,
  worked: 46,
  ordinary: 46,
  overtime: 36,
  complementary: 36,
  night: 44,
  notes: 71,
};
const COLUMNS = DOCUMENT_COLUMNS.map((key) => ({ key, width: WIDTHS[key] }));

/** Streams the documents into one PDF; counts them in `counter.rows`. */
export function pdfStream(
  documents: AsyncIterable<WorkerDocument>,
  options: { locale: DocumentLocale; generatedAt: Temporal.Instant; counter: { rows: number } },
): Readable {
  const label = LABELS[options.locale];
  const doc = new (pdfKit())({
    size: 'A4',
    margin: 40,
    autoFirstPage: false,
    info: { Title: label.title, Producer: 'Jornada', Creator: 'Jornada' },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  void (async () => {
    try {
      let any = false;
      for await (const document of documents) {
        any = true;
        drawDocument(doc, document, label, options.generatedAt);
        options.counter.rows += 1;
      }
      if (!any) {
        doc.addPage();
        doc.font('bold').fontSize(14).text(label.title);
        doc.font('regular').fontSize(10).text(label.noCorrections);
      }
      doc.end();
    } catch (error) {
      doc.destroy(error as Error);
    }
  })();
  return doc;
}

function drawDocument(
  doc: PDFKit.PDFDocument,
  document: WorkerDocument,
  label: Labels,
  generatedAt: Temporal.Instant,
): void {
  doc.addPage();
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  doc.font('bold').fontSize(15).text(`${label.title} · ${document.month}`, left, 40);
  doc.moveDown(0.4);
  const field = (name: string, value: string | null) => {
    doc.font('bold').fontSize(8.5).text(`${name}: `, { continued: true });
    doc.font('regular').text(value ?? label.none);
  };
  for (const [name, value] of documentHeading(document, label)) field(name, value);
  doc.moveDown(0.6);

  const rowHeight = 13;
  const header = () => {
    let x = left;
    const y = doc.y;
    doc.font('bold').fontSize(7.5);
    for (const column of COLUMNS) {
      doc.text(label[column.key], x + 2, y, { width: column.width - 4, lineBreak: false });
      x += column.width;
    }
    doc
      .moveTo(left, y + rowHeight - 3)
      .lineTo(left + width, y + rowHeight - 3)
      .lineWidth(0.5)
      .stroke();
    doc.y = y + rowHeight;
  };
  const bottom = () => doc.page.height - doc.page.margins.bottom - 40;
  header();
  doc.font('regular').fontSize(7.5);
  for (const day of document.days) {
    const figures = dayCells(day, label, document.absenceLabels, document.employment.trackingStart);
    const cells: Record<DocumentColumn, string> = {
      ...figures,
      worked: hhmm(figures.worked),
      ordinary: hhmm(figures.ordinary),
      overtime: hhmm(figures.overtime),
      complementary: hhmm(figures.complementary),
      night: hhmm(figures.night),
    };
    // A cell wraps rather than cut a mark off (a legal record hides nothing): the row is as tall as its tallest.
    const height = Math.max(
      rowHeight,
      ...COLUMNS.map((column) => doc.heightOfString(cells[column.key], { width: column.width - 4 }) + 3),
    );
    if (doc.y + height > bottom()) {
      footer(doc, document, label, generatedAt);
      doc.addPage();
      doc.y = 40;
      header();
      doc.font('regular').fontSize(7.5);
    }
    let x = left;
    const y = doc.y;
    for (const column of COLUMNS) {
      doc.text(cells[column.key], x + 2, y, { width: column.width - 4 });
      x += column.width;
    }
    doc.y = y + height;
  }

  const needed =
    200 + (document.corrections.length + document.recordsByOthers.length + document.legalLimits.length) * 24;
  if (doc.y + needed > bottom()) {
    footer(doc, document, label, generatedAt);
    doc.addPage();
    doc.y = 40;
  }
  doc.moveDown(0.6);
  const totals = dayCells(document.totals, label, document.absenceLabels);
  doc.font('bold').fontSize(10).text(label.totals, left);
  doc.font('regular').fontSize(8.5);
  doc.text(
    `${label.worked} ${hhmm(totals.worked)} · ${label.ordinary} ${hhmm(totals.ordinary)} · ${label.overtimeNote} ${hhmm(totals.overtime)} · ${label.complementaryNote} ${hhmm(totals.complementary)} · ${label.night} ${hhmm(totals.night)}`,
  );
  doc.moveDown(0.6);
  doc.font('bold').fontSize(10).text(label.corrections, left);
  doc.font('regular').fontSize(8);
  if (document.corrections.length === 0) doc.text(label.noCorrections);
  for (const correction of document.corrections) {
    const line = correctionLine(correction, label, document.timeZone);
    doc.text(`• ${line}`, { width });
  }
  doc.moveDown(0.6);
  doc.font('bold').fontSize(10).text(label.othersTitle, left);
  doc.font('regular').fontSize(8);
  if (document.recordsByOthers.length === 0) doc.text(label.noOthers);
  for (const record of document.recordsByOthers) {
    doc.text(`• ${othersLine(record, label, document.timeZone)}`, { width });
  }
  doc.moveDown(0.6);
  doc.font('bold').fontSize(10).text(label.limitsTitle, left);
  doc.font('regular').fontSize(8);
  if (document.legalLimits.length === 0) doc.text(label.noLimits);
  for (const finding of document.legalLimits) doc.text(`• ${limitLine(finding, label)}`, { width });
  doc.moveDown(1);
  const boxY = doc.y;
  const boxWidth = (width - 20) / 2;
  for (const [index, name] of [label.companySignature, label.workerSignature].entries()) {
    const x = left + index * (boxWidth + 20);
    doc.rect(x, boxY, boxWidth, 60).lineWidth(0.7).stroke();
    doc
      .font('regular')
      .fontSize(8)
      .text(name, x + 6, boxY + 6, { width: boxWidth - 12 });
  }
  doc.y = boxY + 70;
  footer(doc, document, label, generatedAt);
}

function footer(
  doc: PDFKit.PDFDocument,
  document: WorkerDocument,
  label: Labels,
  generatedAt: Temporal.Instant,
) {
  const left = doc.page.margins.left;
  const y = doc.page.height - doc.page.margins.bottom - 28;
  const keep = doc.y;
  doc.font('regular').fontSize(6.5);
  doc.text(
    `${label.generated}: ${generatedText(generatedAt, document.timeZone)} · ${label.version}: ${DOCUMENT_VERSION} · ${document.worker.name} · ${document.month}`,
    left,
    y,
    { lineBreak: false },
  );
  doc.text(`${label.chain}: ${document.chainHead ?? label.none}`, left, y + 9, { lineBreak: false });
  if (document.seal !== null) {
    doc.text(`${label.seal}: ${document.seal}`, left, y + 18, { lineBreak: false });
  }
  doc.y = keep;
}
