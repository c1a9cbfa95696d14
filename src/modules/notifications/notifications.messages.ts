import { Eta } from 'eta';

/**
 * What each kind of notification says, in Spanish and English (docs/decisions/0028-notifications.md): one Eta
 * template per kind and language for the subject and one for the body, rendered twice, escaped for the HTML part
 * and as is for the plain-text part, inside one layout with the link and the unsubscribe-by-kind link.
 */
export const NOTIFICATION_KINDS = [
  'absence_requested',
  'absence_decided',
  'correction_requested',
  'correction_to_accept',
  'compliance_alert',
  'record_to_answer',
  'shifts_published',
  'missed_clock_out',
  'missed_clock_outs',
  'month_closed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export type Language = 'es' | 'en';

type Texts = { subject: string; body: string };

const MESSAGES: Record<NotificationKind, Record<Language, Texts>> = {
  absence_requested: {
    es: {
      subject: '<%= it.employee_name %> pide <%= it.type_label %>',
      body: '<%= it.employee_name %> ha pedido <%= it.type_label %> <%= it.dates %> (<%= it.days %>). La solicitud espera que la apruebes o la deniegues.',
    },
    en: {
      subject: '<%= it.employee_name %> asks for <%= it.type_label %>',
      body: '<%= it.employee_name %> asked for <%= it.type_label %> <%= it.dates %> (<%= it.days %>). The request waits for you to approve or refuse it.',
    },
  },
  absence_decided: {
    es: {
      subject: 'Tu solicitud de <%= it.type_label %> está <%= it.status %>',
      body: 'Tu solicitud de <%= it.type_label %> <%= it.dates %> está <%= it.status %>.<% if (it.reason) { %> Motivo: «<%= it.reason %>».<% } %>',
    },
    en: {
      subject: 'Your <%= it.type_label %> request was <%= it.status %>',
      body: 'Your <%= it.type_label %> request <%= it.dates %> was <%= it.status %>.<% if (it.reason) { %> Reason: “<%= it.reason %>”.<% } %>',
    },
  },
  correction_requested: {
    es: {
      subject: '<%= it.employee_name %> pide corregir su registro',
      body: '<%= it.employee_name %> pide corregir su registro del <%= it.date %>: «<%= it.reason %>». La corrección espera la aprobación de la empresa.',
    },
    en: {
      subject: '<%= it.employee_name %> asks to correct their record',
      body: '<%= it.employee_name %> asks to correct their record of <%= it.date %>: “<%= it.reason %>”. The correction waits for the company’s approval.',
    },
  },
  correction_to_accept: {
    es: {
      subject: 'La empresa propone corregir tu registro',
      body: 'La empresa propone corregir tu registro del <%= it.date %>: «<%= it.reason %>». No cambia nada hasta que la aceptes; también puedes rechazarla con un motivo.',
    },
    en: {
      subject: 'The company proposes to correct your record',
      body: 'The company proposes to correct your record of <%= it.date %>: “<%= it.reason %>”. Nothing changes until you accept it; you may also reject it with a reason.',
    },
  },
  record_to_answer: {
    es: {
      subject: 'Un registro a tu nombre espera tu respuesta',
      body: '<%= it.recorder %> ha registrado un fichaje a tu nombre el <%= it.date %>. Revísalo en «Mi registro»: acéptalo o recházalo con un motivo.',
    },
    en: {
      subject: 'A record made for you waits for your answer',
      body: '<%= it.recorder %> recorded a check-in for you on <%= it.date %>. Review it under “My record”: accept it, or reject it with a reason.',
    },
  },
  shifts_published: {
    es: {
      subject: 'Tus turnos han cambiado',
      body: 'La empresa ha publicado o cambiado tus turnos. Tus turnos <%= it.dates %>: <%= it.shift_lines %>. Los tienes en «Mis turnos».',
    },
    en: {
      subject: 'Your shifts have changed',
      body: 'The company published or changed your shifts. Your shifts <%= it.dates %>: <%= it.shift_lines %>. They are under “My shifts”.',
    },
  },
  missed_clock_out: {
    es: {
      subject: '¿Olvidaste fichar la salida?',
      body: 'Tu jornada del <%= it.date %> sigue abierta desde las <%= it.time %>. Si ya saliste, pide una corrección en el portal con la hora real.',
    },
    en: {
      subject: 'Did you forget to clock out?',
      body: 'Your workday of <%= it.date %> is still open since <%= it.time %>. If you left, ask for a correction in the portal with the real time.',
    },
  },
  missed_clock_outs: {
    es: {
      subject: 'Salidas sin fichar ayer: <%= it.count %>',
      body: 'Jornadas que siguen abiertas desde ayer: <%= it.names %>. Cada persona ya tiene un aviso; si no la corrige, propón tú la corrección.',
    },
    en: {
      subject: 'Clock-outs missed yesterday: <%= it.count %>',
      body: 'Workdays still open since yesterday: <%= it.names %>. Each person was told; if they do not correct it, propose the correction yourself.',
    },
  },
  month_closed: {
    es: {
      subject: 'Tu registro de <%= it.month_name %> está cerrado',
      body: 'La empresa ha cerrado el mes de <%= it.month_name %>. Tu resumen mensual del registro de jornada va adjunto en PDF y está en el portal, donde puedes dar tu conformidad (arts. 12.4.c y 35.5 ET).',
    },
    en: {
      subject: 'Your record of <%= it.month_name %> is closed',
      body: 'The company closed the month of <%= it.month_name %>. Your monthly time record summary is attached as a PDF and is in the portal, where you can acknowledge it (Workers’ Statute arts. 12.4.c and 35.5).',
    },
  },
  compliance_alert: {
    es: {
      subject: 'Alerta de límites legales: <%= it.employee_name %>',
      body: '<%= it.employee_name %>, <%= it.date %>: <%= it.detail %> (<%= it.law %>).',
    },
    en: {
      subject: 'Legal-limit alert: <%= it.employee_name %>',
      body: '<%= it.employee_name %>, <%= it.date %>: <%= it.detail %> (<%= it.law %>).',
    },
  },
};

/** The words around every message. */
const FRAME: Record<Language, { open: string; unsubscribe: string; why: string }> = {
  es: {
    open: 'Ábrelo en Jornada',
    unsubscribe: 'No quiero más correos de este tipo',
    why: 'Recibes este correo de <%= it.company %> a través de Jornada. Lo tienes también en tu bandeja.',
  },
  en: {
    open: 'Open it in Jornada',
    unsubscribe: 'No more e-mails of this kind',
    why: 'You receive this e-mail from <%= it.company %> through Jornada. It is in your inbox too.',
  },
};

const html = new Eta({ autoEscape: true, autoTrim: false });
const text = new Eta({ autoEscape: false, autoTrim: false });

const LAYOUT = `<!doctype html>
<html lang="<%= it.language %>"><head><meta charset="utf-8"><title><%= it.subject %></title></head>
<body style="font-family:system-ui,sans-serif;color:#1b1f24;line-height:1.5;max-width:36rem;margin:0 auto;padding:1rem">
<p style="color:#57606a"><%= it.company %></p>
<p><%~ it.body %></p>
<p><a href="<%= it.link %>" style="display:inline-block;background:#0b5cad;color:#fff;padding:.6rem 1rem;border-radius:.4rem;text-decoration:none"><%= it.open %></a></p>
<hr style="border:none;border-top:1px solid #d0d7de">
<p style="color:#57606a;font-size:.85rem"><%~ it.why %> <a href="<%= it.unsubscribe_url %>"><%= it.unsubscribe %></a></p>
</body></html>`;

const STATUS: Record<Language, Record<string, string>> = {
  es: { approved: 'aprobada', denied: 'denegada', cancelled: 'cancelada' },
  en: { approved: 'approved', denied: 'refused', cancelled: 'cancelled' },
};

/** What each legal-limit rule found, said briefly (docs/time-rules.md, "Legal limits"). */
const RULES: Record<Language, Record<string, string>> = {
  es: {
    daily_hours: 'más de nueve horas ordinarias en el día',
    rest_between_workdays: 'menos de doce horas de descanso entre jornadas',
    continuous_work_without_break: 'más de seis horas seguidas sin pausa',
    weekly_rest: 'una semana sin día y medio de descanso',
    night_work_average: 'más de ocho horas de media de trabajo nocturno en quince días',
    outside_schedule: 'teletrabajo registrado fuera del turno (derecho a la desconexión)',
    complementary_limit: 'horas complementarias por encima del límite pactado',
    overtime_yearly_warning: '70 horas extraordinarias en el año',
    overtime_yearly_cap: 'más de 80 horas extraordinarias en el año',
  },
  en: {
    daily_hours: 'more than nine ordinary hours in the day',
    rest_between_workdays: 'less than twelve hours of rest between workdays',
    continuous_work_without_break: 'more than six hours in a row without a break',
    weekly_rest: 'a week without a day and a half of rest',
    night_work_average: 'more than eight hours of night work on average over fifteen days',
    outside_schedule: 'remote work recorded outside the shift (the right to disconnect)',
    complementary_limit: 'complementary hours above the agreed limit',
    overtime_yearly_warning: '70 overtime hours in the year',
    overtime_yearly_cap: 'more than 80 overtime hours in the year',
  },
};

/** Who made a record for a worker, as the worker reads it. */
const RECORDERS: Record<Language, Record<string, string>> = {
  es: {
    admin: 'Una persona de la empresa',
    api_key: 'Una integración de la empresa',
    terminal: 'Un terminal de fichaje',
  },
  en: {
    admin: 'Someone at the company',
    api_key: 'One of the company’s integrations',
    terminal: 'A clocking terminal',
  },
};

const dayText = (date: string, language: Language) =>
  new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));

/**
 * The template's words from a notification's stored facts (dates as ISO, a status as its value), in the reader's
 * language: the facts are stored once, the words made when read.
 */
function wordsOf(language: Language, data: Record<string, unknown>): Record<string, unknown> {
  const words: Record<string, unknown> = { ...data };
  const start = typeof data.start_date === 'string' ? data.start_date : null;
  const end = typeof data.end_date === 'string' ? data.end_date : null;
  if (start && end) {
    words.dates =
      start === end
        ? `${language === 'es' ? 'el' : 'on'} ${dayText(start, language)}`
        : language === 'es'
          ? `del ${dayText(start, language)} al ${dayText(end, language)}`
          : `from ${dayText(start, language)} to ${dayText(end, language)}`;
  }
  if (typeof data.date === 'string') words.date = dayText(data.date, language);
  if (typeof data.days_count === 'number') {
    const days = new Intl.NumberFormat(language).format(data.days_count);
    words.days =
      language === 'es'
        ? `${days} ${data.days_count === 1 ? 'día' : 'días'}`
        : `${days} ${data.days_count === 1 ? 'day' : 'days'}`;
  }
  if (typeof data.status === 'string') words.status = STATUS[language][data.status] ?? data.status;
  if (typeof data.rule === 'string') words.detail = RULES[language][data.rule] ?? data.rule;
  if (typeof data.recorder === 'string') words.recorder = RECORDERS[language][data.recorder] ?? data.recorder;
  if (typeof data.month === 'string') {
    words.month_name = new Intl.DateTimeFormat(language, {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${data.month}-15T12:00:00Z`));
  }
  if (Array.isArray(data.names)) words.names = data.names.join(', ');
  if (Array.isArray(data.shifts)) {
    const shifts = data.shifts as Array<{ date: string; start: string; end: string; on_call: boolean }>;
    words.shift_lines =
      shifts.length === 0
        ? language === 'es'
          ? 'ninguno'
          : 'none'
        : shifts
            .map(
              (shift) =>
                `${dayText(shift.date, language)} ${shift.start}–${shift.end}${shift.end <= shift.start ? ' (+1)' : ''}${shift.on_call ? (language === 'es' ? ' (guardia)' : ' (on call)') : ''}`,
            )
            .join('; ');
  }
  return words;
}

export type RenderedMail = { subject: string; text: string; html: string };

/** One notification's e-mail in a language: subject, plain text and HTML. */
export function renderNotification(
  kind: NotificationKind,
  language: Language,
  data: Record<string, unknown>,
  frame: { company: string; link: string; unsubscribeUrl: string },
): RenderedMail {
  const texts = MESSAGES[kind][language];
  const words = FRAME[language];
  const vars = wordsOf(language, data);
  const subject = text.renderString(texts.subject, vars);
  const plainBody = text.renderString(texts.body, vars);
  const plainWhy = text.renderString(words.why, { company: frame.company });
  return {
    subject,
    text: [
      frame.company,
      '',
      plainBody,
      '',
      `${words.open}: ${frame.link}`,
      '',
      '--',
      plainWhy,
      `${words.unsubscribe}: ${frame.unsubscribeUrl}`,
      '',
    ].join('\n'),
    html: html.renderString(LAYOUT, {
      language,
      subject,
      company: frame.company,
      body: html.renderString(texts.body, vars),
      link: frame.link,
      open: words.open,
      why: html.renderString(words.why, { company: frame.company }),
      unsubscribe: words.unsubscribe,
      unsubscribe_url: frame.unsubscribeUrl,
    }),
  };
}

/** The inbox line of a notification: its subject in the reader's language. */
export function notificationTitle(kind: string, language: Language, data: Record<string, unknown>): string {
  const texts = (MESSAGES as Record<string, Record<Language, Texts> | undefined>)[kind]?.[language];
  return texts ? text.renderString(texts.subject, wordsOf(language, data)) : kind;
}

/** The inbox's longer line: the body in the reader's language. */
export function notificationBody(kind: string, language: Language, data: Record<string, unknown>): string {
  const texts = (MESSAGES as Record<string, Record<Language, Texts> | undefined>)[kind]?.[language];
  return texts ? text.renderString(texts.body, wordsOf(language, data)) : '';
}
