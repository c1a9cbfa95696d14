import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/** The portal speaks Spanish by default; English on request (kept in localStorage). */
const es = {
  app: 'Mi registro de jornada',
  language: 'English',
  languageLabel: 'Switch to English',
  logout: 'Cerrar sesión',
  nav: { today: 'Hoy', record: 'Mi registro', corrections: 'Correcciones' },
  login: {
    title: 'Entrar',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Entrar',
  },
  invitation: {
    title: 'Crea tu contraseña',
    intro: 'Con ella registrarás tu jornada y consultarás tu registro.',
    password: 'Contraseña (12 caracteres o más)',
    confirm: 'Repite la contraseña',
    mismatch: 'Las contraseñas no coinciden.',
    submit: 'Crear contraseña y entrar',
  },
  today: {
    hello: 'Hola, {{name}}',
    out: 'Fuera de la jornada',
    working: 'Trabajando desde las {{time}}',
    onBreak: 'En pausa desde las {{time}}',
    clockIn: 'Entrar',
    clockOut: 'Salir',
    breakStart: 'Empezar pausa',
    breakEnd: 'Volver de la pausa',
    mode: 'Dónde trabajas',
    ended: 'Tu relación laboral terminó el {{date}}. Puedes consultar tu registro, pero no fichar.',
    reset:
      'Tu empresa restableció tu acceso al portal el {{dates}}. Tus sesiones se cerraron y tu contraseña dejó de servir; tus documentos lo indican. Si no lo pediste tú, díselo a tu representación legal.',
    records: 'Registros de hoy',
    none: 'Aún no hay registros hoy.',
    recorded: 'Registrado: {{what}} a las {{time}}',
  },
  type: { in: 'Entrada', out: 'Salida', break_start: 'Inicio de pausa', break_end: 'Fin de pausa' },
  mode: { on_site: 'Presencial', remote: 'Teletrabajo' },
  record: {
    month: 'Mes',
    worked: 'Trabajado',
    expected: 'Previsto',
    breaks: 'Pausas',
    balance: 'Saldo',
    banked: 'Bolsa de horas',
    incomplete: 'Incompleto',
    voided: 'anulado',
    late: 'tardío',
    corrected: 'corrección',
    noDays: 'No hay días registrados este mes.',
    total: 'Total del mes',
    ask: 'Pedir una corrección de este día',
    closed: 'Mes cerrado por la empresa',
    closedIntro: 'Este es tu resumen del mes, tal como quedó en el registro. Confirma que lo has recibido.',
    acknowledge: 'Confirmo que he recibido el resumen',
    acknowledged: 'Recibido el {{date}}',
    download: 'Descargar el documento (PDF)',
    seal: 'Sello del mes (guárdalo: prueba que nadie ha reescrito tu registro):',
    newVersion:
      'Una corrección cambió este mes después de que lo confirmaras: esta es la versión {{version}}. Confírmala de nuevo.',
    conflict: 'En disputa',
    byOther: 'registrado por otra persona',
    accepted: 'aceptado por ti',
    rejected: 'rechazado por ti',
  },
  others: {
    title: 'Registros hechos por otra persona',
    intro:
      'La empresa ha registrado estos fichajes por ti. Acéptalos si son correctos o recházalos con un motivo: la empresa verá tu respuesta y tendrá que corregir el registro.',
    by: { api_key: 'la empresa, desde otro sistema', admin: 'una persona de la empresa', system: 'Jornada' },
    recordedBy: 'Registrado por {{who}} el {{date}} a las {{time}}',
    accept: 'Aceptar',
    reject: 'Rechazar',
    reason: 'Por qué no es correcto',
    confirmReject: 'Rechazar el registro',
    cancel: 'Cancelar',
    done: 'Respuesta guardada.',
  },
  corrections: {
    title: 'Correcciones',
    intro:
      'Ninguna corrección cambia tu registro sin tu aprobación y la de la empresa. Aquí ves las pedidas por ti y por la empresa. Los fichajes que otra persona registre por ti aparecen en «Mi registro» para que los aceptes o los rechaces.',
    none: 'No hay correcciones.',
    status: { pending: 'Pendiente', applied: 'Aplicada', rejected: 'Rechazada' },
    byYou: 'Pedida por ti',
    byCompany: 'Pedida por la empresa',
    voids: 'Anula: {{what}}',
    adds: 'Añade: {{what}}',
    waitingYou: 'Espera tu aprobación',
    waitingCompany: 'Espera la aprobación de la empresa',
    accept: 'Aceptar',
    reject: 'Rechazar',
    rejectReason: 'Motivo del rechazo',
    confirmReject: 'Rechazar la corrección',
    cancel: 'Cancelar',
    rejected: 'Rechazada: {{reason}}',
    request: 'Pedir una corrección',
    day: 'Día',
    reason: 'Motivo (obligatorio)',
    toVoid: 'Registros que sobran',
    toAdd: 'Registro que falta',
    addType: 'Tipo',
    addTime: 'Hora',
    send: 'Enviar a la empresa',
    sent: 'Corrección enviada. La empresa debe aprobarla.',
  },
  minutes: '{{hours}} h {{minutes}} min',
};

type Dictionary = typeof es;

const en: Dictionary = {
  app: 'My time registry',
  language: 'Español',
  languageLabel: 'Cambiar a español',
  logout: 'Log out',
  nav: { today: 'Today', record: 'My record', corrections: 'Corrections' },
  login: { title: 'Log in', email: 'Email', password: 'Password', submit: 'Log in' },
  invitation: {
    title: 'Create your password',
    intro: 'You will use it to record your working time and see your record.',
    password: 'Password (12 characters or more)',
    confirm: 'Repeat the password',
    mismatch: 'The passwords do not match.',
    submit: 'Create password and log in',
  },
  today: {
    hello: 'Hello, {{name}}',
    out: 'Not working',
    working: 'Working since {{time}}',
    onBreak: 'On a break since {{time}}',
    clockIn: 'Clock in',
    clockOut: 'Clock out',
    breakStart: 'Start a break',
    breakEnd: 'End the break',
    mode: 'Where you work',
    ended: 'Your employment ended on {{date}}. You can read your record but not clock in.',
    reset:
      'Your company reset your portal access on {{dates}}. Your sessions ended and your password stopped working; your documents say so. If you did not ask for it, tell your workers’ representatives.',
    records: "Today's records",
    none: 'No records today yet.',
    recorded: 'Recorded: {{what}} at {{time}}',
  },
  type: { in: 'In', out: 'Out', break_start: 'Break start', break_end: 'Break end' },
  mode: { on_site: 'On site', remote: 'Remote' },
  record: {
    month: 'Month',
    worked: 'Worked',
    expected: 'Expected',
    breaks: 'Breaks',
    balance: 'Balance',
    banked: 'Banked hours',
    incomplete: 'Incomplete',
    voided: 'voided',
    late: 'late',
    corrected: 'correction',
    noDays: 'No recorded days this month.',
    total: 'Month total',
    ask: 'Ask to correct this day',
    closed: 'Month closed by the company',
    closedIntro: 'This is your summary of the month as the registry closed it. Confirm that you received it.',
    acknowledge: 'I confirm I received the summary',
    acknowledged: 'Received on {{date}}',
    download: 'Download the document (PDF)',
    seal: 'Seal of the month (keep it: it proves nobody rewrote your record):',
    newVersion:
      'A correction changed this month after you confirmed it: this is version {{version}}. Confirm it again.',
    conflict: 'Disputed',
    byOther: 'recorded by someone else',
    accepted: 'accepted by you',
    rejected: 'rejected by you',
  },
  others: {
    title: 'Records made by someone else',
    intro:
      'The company recorded these for you. Accept them if they are right, or reject them with a reason: the company sees your answer and must correct the record.',
    by: { api_key: 'the company, from another system', admin: 'a person at the company', system: 'Jornada' },
    recordedBy: 'Recorded by {{who}} on {{date}} at {{time}}',
    accept: 'Accept',
    reject: 'Reject',
    reason: 'Why it is not right',
    confirmReject: 'Reject the record',
    cancel: 'Cancel',
    done: 'Answer saved.',
  },
  corrections: {
    title: 'Corrections',
    intro:
      'No correction changes your record without your approval and the company’s. Here are the ones you and the company asked for. Records someone else makes for you appear in “My record” for you to accept or reject.',
    none: 'No corrections.',
    status: { pending: 'Pending', applied: 'Applied', rejected: 'Rejected' },
    byYou: 'Asked by you',
    byCompany: 'Asked by the company',
    voids: 'Voids: {{what}}',
    adds: 'Adds: {{what}}',
    waitingYou: 'Waits for your approval',
    waitingCompany: "Waits for the company's approval",
    accept: 'Accept',
    reject: 'Reject',
    rejectReason: 'Why you reject it',
    confirmReject: 'Reject the correction',
    cancel: 'Cancel',
    rejected: 'Rejected: {{reason}}',
    request: 'Ask for a correction',
    day: 'Day',
    reason: 'Reason (required)',
    toVoid: 'Records that are wrong',
    toAdd: 'A missing record',
    addType: 'Type',
    addTime: 'Time',
    send: 'Send to the company',
    sent: 'Correction sent. The company must approve it.',
  },
  minutes: '{{hours}} h {{minutes}} min',
};

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem('jornada.portal.lang');
export const initialLanguage: Language = stored === 'en' ? 'en' : 'es';

void i18next.use(initReactI18next).init({
  resources: { es: { translation: es }, en: { translation: en } },
  lng: initialLanguage,
  fallbackLng: 'es',
  interpolation: { escapeValue: false },
  initAsync: false,
});
document.documentElement.lang = initialLanguage;

export function switchLanguage(language: Language): void {
  localStorage.setItem('jornada.portal.lang', language);
  document.documentElement.lang = language;
  void i18next.changeLanguage(language);
}

export { i18next };
