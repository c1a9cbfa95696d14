import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { WorkerDocument } from './documents.ts';

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

export const DOCUMENT_VERSION = 'jornada-registro-1';

const LABELS = {
  es: {
    title: 'Registro de jornada',
    company: 'Empresa',
    taxId: 'CIF/NIF',
    centre: 'Centro de trabajo',
    ccc: 'CCC',
    worker: 'Trabajador/a',
    nationalId: 'DNI/NIE',
    naf: 'Nº afiliación (NAF)',
    month: 'Mes',
    zone: 'Zona horaria',
    day: 'Día',
    intervals: 'Entradas y salidas',
    mode: 'Modalidad',
    on_site: 'presencial',
    remote: 'teletrabajo',
    worked: 'Trabajado',
    ordinary: 'Ordinario',
    overtime: 'Extra',
    night: 'Nocturno',
    notes: 'Observaciones',
    totals: 'Totales del mes',
    corrections: 'Correcciones del mes',
    noCorrections: 'Ninguna.',
    requested: 'pedida por',
    approvedBy: 'aprobada por la empresa',
    acceptedByWorker: 'aceptada por el trabajador',
    applied: 'aplicada',
    companySignature: 'Firma de la empresa',
    workerSignature: 'Firma del trabajador/a',
    generated: 'Generado',
    version: 'Versión',
    chain: 'Cadena del registro',
    late: 'registro tardío',
    corrected: 'corregido',
    incomplete: 'incompleto',
    none: '—',
    overtimeNote: 'Horas extraordinarias (art. 35.5 ET)',
  },
  en: {
    title: 'Working time registry',
    company: 'Company',
    taxId: 'Tax id',
    centre: 'Work centre',
    ccc: 'CCC',
    worker: 'Worker',
    nationalId: 'National id',
    naf: 'Social Security no. (NAF)',
    month: 'Month',
    zone: 'Time zone',
    day: 'Day',
    intervals: 'In and out',
    mode: 'Work mode',
    on_site: 'on site',
    remote: 'remote',
    worked: 'Worked',
    ordinary: 'Ordinary',
    overtime: 'Overtime',
    night: 'Night',
    notes: 'Notes',
    totals: 'Month totals',
    corrections: 'Corrections of the month',
    noCorrections: 'None.',
    requested: 'requested by',
    approvedBy: 'approved by the company',
    acceptedByWorker: 'accepted by the worker',
    applied: 'applied',
    companySignature: 'Company signature',
    workerSignature: 'Worker signature',
    generated: 'Generated',
    version: 'Version',
    chain: 'Registry chain',
    late: 'late record',
    corrected: 'corrected',
    incomplete: 'incomplete',
    none: '—',
    overtimeNote: 'Overtime (art. 35.5 ET)',
  },
} as const;

export type DocumentLocale = keyof typeof LABELS;

const hhmm = (minutes: unknown) => {
  const value = Number(minutes ?? 0);
  return `${Math.floor(value / 60)}:${String(value % 60).padStart(2, '0')}`;
};

const COLUMNS = [
  { key: 'day', width: 56 },
  { key: 'intervals', width: 118 },
  { key: 'mode', width: 62 },
  { key: 'worked', width: 46 },
  { key: 'ordinary', width: 46 },
  { key: 'overtime', width: 36 },
  { key: 'night', width: 44 },
  { key: 'notes', width: 107 },
] as const;

/** Streams the documents into one PDF; counts them in `counter.rows`. */
export function pdfStream(
  documents: AsyncIterable<WorkerDocument>,
  options: { locale: DocumentLocale; generatedAt: Temporal.Instant; counter: { rows: number } },
): Readable {
  const label = LABELS[options.locale];
  const doc = new PDFDocument({
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

type Labels = (typeof LABELS)[DocumentLocale];

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
  field(label.company, document.company.name);
  field(label.taxId, document.company.tax_id);
  field(
    label.centre,
    document.centre ? [document.centre.name, document.centre.address].filter(Boolean).join(', ') : null,
  );
  field(label.ccc, document.centre?.ccc ?? null);
  field(label.worker, document.worker.name);
  field(label.nationalId, document.worker.national_id);
  field(label.naf, document.worker.social_security_number);
  field(label.month, document.month);
  field(label.zone, document.timeZone);
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
    if (doc.y + rowHeight > bottom()) {
      footer(doc, document, label, generatedAt);
      doc.addPage();
      doc.y = 40;
      header();
      doc.font('regular').fontSize(7.5);
    }
    const notes = [
      day.holiday,
      day.absence_type,
      Number(day.late_records ?? 0) > 0 ? label.late : null,
      day.corrected === true ? label.corrected : null,
      day.incomplete === true ? label.incomplete : null,
    ].filter((note): note is string => typeof note === 'string' && note !== '');
    const worked = Number(day.worked_minutes ?? 0);
    const overtime = Number(day.overtime_minutes ?? 0);
    const cells: Record<(typeof COLUMNS)[number]['key'], string> = {
      day: String(day.date),
      intervals: typeof day.intervals === 'string' && day.intervals !== '' ? day.intervals : label.none,
      mode:
        typeof day.work_mode === 'string'
          ? day.work_mode
              .split(';')
              .map((mode) => (mode === 'remote' ? label.remote : label.on_site))
              .join(', ')
          : '',
      worked: hhmm(worked),
      ordinary: hhmm(worked - overtime),
      overtime: hhmm(overtime),
      night: hhmm(day.night_minutes),
      notes: notes.join('; ') || '',
    };
    let x = left;
    const y = doc.y;
    for (const column of COLUMNS) {
      doc.text(cells[column.key], x + 2, y, { width: column.width - 4, height: rowHeight, ellipsis: true });
      x += column.width;
    }
    doc.y = y + rowHeight;
  }

  const needed = 150 + document.corrections.length * 24;
  if (doc.y + needed > bottom()) {
    footer(doc, document, label, generatedAt);
    doc.addPage();
    doc.y = 40;
  }
  doc.moveDown(0.6);
  const totals = document.totals;
  const worked = Number(totals.worked_minutes ?? 0);
  const overtime = Number(totals.overtime_minutes ?? 0);
  doc.font('bold').fontSize(10).text(label.totals, left);
  doc.font('regular').fontSize(8.5);
  doc.text(
    `${label.worked} ${hhmm(worked)} · ${label.ordinary} ${hhmm(worked - overtime)} · ${label.overtimeNote} ${hhmm(overtime)} · ${label.night} ${hhmm(totals.night_minutes)}`,
  );
  doc.moveDown(0.6);
  doc.font('bold').fontSize(10).text(label.corrections, left);
  doc.font('regular').fontSize(8);
  if (document.corrections.length === 0) doc.text(label.noCorrections);
  for (const correction of document.corrections) {
    const parts = [
      `“${correction.reason}”`,
      `${label.requested} ${correction.requestedBy} (${correction.requestedAt.toISOString()})`,
      correction.companyApproval
        ? `${label.approvedBy}: ${correction.companyApproval.by} (${correction.companyApproval.at.toISOString()})`
        : null,
      correction.workerApprovalAt
        ? `${label.acceptedByWorker} (${correction.workerApprovalAt.toISOString()})`
        : null,
      correction.appliedAt ? `${label.applied} ${correction.appliedAt.toISOString()}` : null,
    ].filter(Boolean);
    doc.text(`• ${parts.join('; ')}`, { width });
  }
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
    `${label.generated}: ${generatedAt.toString({ smallestUnit: 'second' })} · ${label.version}: ${DOCUMENT_VERSION} · ${document.worker.name} · ${document.month}`,
    left,
    y,
    { lineBreak: false },
  );
  doc.text(`${label.chain}: ${document.chainHead ?? label.none}`, left, y + 9, { lineBreak: false });
  doc.y = keep;
}
