/**
 * The service's problem messages in Spanish. The API speaks English (its clients are programs and their
 * developers); the dashboard puts each field message and each detail it knows into Spanish by its pattern. The
 * patterns follow the messages the service writes (src/platform/errors.ts `plainMessage` and the modules'
 * `invalid(...)` and `ApiError` texts); a test checks a sample of each. A message no pattern knows is shown in
 * English under a Spanish sentence for its `code`, so nothing is hidden.
 */

type Rule = readonly [RegExp, (...groups: string[]) => string];

const plural = (count: string, one: string, many: string) => `${count} ${count === '1' ? one : many}`;

const TYPES: Record<string, string> = {
  string: 'un texto',
  integer: 'un número entero',
  number: 'un número',
  boolean: 'verdadero o falso',
  object: 'un objeto',
  array: 'una lista',
  null: 'nulo',
};

const FORMATS: Record<string, string> = {
  email: 'una dirección de correo válida',
  date: 'una fecha válida (AAAA-MM-DD)',
  'date time': 'una fecha y hora válidas',
  uri: 'una dirección web válida',
  uuid: 'un identificador válido',
  time: 'una hora válida',
};

/** Field messages: what follows the field's name ("Email" + "is already used…"). */
const FIELD_RULES: Rule[] = [
  // Passkeys (issue 35).
  [/^is not a WebAuthn response$/, () => 'no es una respuesta WebAuthn'],
  [
    /^answers no registration of yours that is still open: start again$/,
    () => 'no responde a ningún registro tuyo abierto: empieza de nuevo',
  ],
  [/^could not be verified(?:: (.*))?$/, (why) => `no se pudo verificar${why ? `: ${why}` : ''}`],
  [
    /^you have no passkey: approve without a signature$/,
    () => 'no tienes llave de acceso: aprueba sin firma',
  ],
  [
    /^is required: you have a passkey, so your approvals are signed with it$/,
    () => 'es obligatoria: tienes una llave de acceso, así que tus aprobaciones se firman con ella',
  ],
  [
    /^is not your passkey’s signature of this approval \(it may have changed meanwhile\): sign again$/,
    () => 'no es la firma de esta aprobación con tu llave de acceso (puede haber cambiado): firma de nuevo',
  ],
  [/^must not be empty$/, () => 'no puede estar vacío'],
  [/^must not be blank$/, () => 'no puede quedar en blanco'],
  [
    /^must have at least (\d+) characters?$/,
    (n) => `debe tener al menos ${plural(n, 'carácter', 'caracteres')}`,
  ],
  [/^must be at least (\d+) characters$/, (n) => `debe tener al menos ${n} caracteres`],
  [
    /^must have at most (\d+) characters?$/,
    (n) => `debe tener como mucho ${plural(n, 'carácter', 'caracteres')}`,
  ],
  [/^needs at least (\d+) items?$/, (n) => `necesita al menos ${plural(n, 'elemento', 'elementos')}`],
  [/^takes at most (\d+) items?$/, (n) => `admite como mucho ${plural(n, 'elemento', 'elementos')}`],
  [/^must not repeat an item$/, () => 'no puede repetir un elemento'],
  [/^must be at least (-?[\d.]+)$/, (n) => `debe ser al menos ${n}`],
  [/^must be at most (-?[\d.]+)$/, (n) => `debe ser como mucho ${n}`],
  [
    /^must not exceed the operator's threshold of (\d+) hours$/,
    (n) => `no puede superar el umbral del operador, ${plural(n, 'hora', 'horas')}`,
  ],
  [/^must be more than (-?[\d.]+)$/, (n) => `debe ser mayor que ${n}`],
  [/^must be less than (-?[\d.]+)$/, (n) => `debe ser menor que ${n}`],
  [/^must be a multiple of (-?[\d.]+)$/, (n) => `debe ser múltiplo de ${n}`],
  [/^needs at least (\d+) fields?$/, (n) => `necesita al menos ${plural(n, 'campo', 'campos')}`],
  [
    /^must be an? ([a-z]+)(?: or ([a-z]+))?$/,
    (a, b) =>
      `debe ser ${[a, b]
        .filter(Boolean)
        .map((type) => TYPES[type ?? ''] ?? type)
        .join(' o ')}`,
  ],
  [/^must be a valid (.+)$/, (format) => `debe ser ${FORMATS[format] ?? `un valor válido (${format})`}`],
  [/^must match format "(.+)"$/, (format) => `debe ser ${FORMATS[format] ?? `un valor válido (${format})`}`],
  [/^is not in the expected form$/, () => 'no tiene la forma esperada'],
  [/^must be (".*"|[\d.-]+|true|false|null)$/, (value) => `debe ser ${value}`],
  [/^must be equal to one of the allowed values$/, () => 'debe ser uno de los valores permitidos'],
  [/^is not allowed$/, () => 'no se admite'],
  [/^is not an allowed field$/, () => 'no es un campo admitido'],
  [/^must be one of: (.+)$/, (values) => `debe ser uno de: ${values.replace(/\bnull\b/, 'vacío')}`],
  [/^is not a known field$/, () => 'no es un campo conocido'],
  [/^is required$/, () => 'es obligatorio'],
  [/^is invalid$/, () => 'no es válido'],
  [/^is too large$/, () => 'es demasiado grande'],
  [/^could not be read$/, () => 'no se pudo leer'],
  [/^is not valid JSON$/, () => 'no es JSON válido'],
  [/^contains a character that cannot be stored$/, () => 'contiene un carácter que no se puede guardar'],
  [/^is missing or does not match the session$/, () => 'falta o no coincide con la sesión'],
  [/^is already used by another employee of this company$/, () => 'ya lo usa otro empleado de la empresa'],
  [/^is already used by another absence type of this company$/, () => 'ya lo usa otro tipo de ausencia'],
  [/^is already used$/, () => 'ya está en uso'],
  [/^is not an employee of this company$/, () => 'no es un empleado de esta empresa'],
  [/^is not a concept map of this company$/, () => 'no es un mapa de conceptos de esta empresa'],
  [/^is not a work centre of this company$/, () => 'no es un centro de trabajo de esta empresa'],
  [/^is not a device of yours$/, () => 'no es un dispositivo tuyo'],
  [
    /^must be the public part of an ECDSA P-256 key, as a JWK$/,
    () => 'debe ser la parte pública de una clave ECDSA P-256, en formato JWK',
  ],
  [/^is not a valid P-256 point$/, () => 'no es un punto P-256 válido'],
  [
    /^is unknown, used or expired: make a new one in the dashboard$/,
    () => 'no existe, ya se usó o ha caducado: crea otro en el panel',
  ],
  [/^is unknown, used or expired$/, () => 'no existe, ya se usó o ha caducado'],
  [/^is not right$/, () => 'no es correcto'],
  [/^is not valid, was used or has expired$/, () => 'no es válido, ya se usó o ha caducado'],
  [/^or employee_id and pin are required, not both$/, () => 'o employee_id y pin son obligatorios, no ambos'],
  [/^or all: true is required$/, () => 'o «all: true» es obligatorio'],
  [
    /^names a kind of notification that does not exist$/,
    () => 'nombra un tipo de notificación que no existe',
  ],
  [/^already has a holiday in this company$/, () => 'ya es festivo en esta empresa'],
  [/^already has a holiday in this work centre$/, () => 'ya es festivo en este centro de trabajo'],
  [/^is not a location of this company$/, () => 'no es un centro de trabajo de esta empresa'],
  [
    /^duplicates a check-in of the same employee, type and timestamp$/,
    () => 'repite un fichaje del mismo empleado, tipo y hora',
  ],
  [/^must be on or after from$/, () => 'debe ser igual o posterior a «desde»'],
  [
    /^a time zone applies from a date up to today$/,
    () => 'un huso horario se aplica desde una fecha que no sea posterior a hoy',
  ],
  [/^applies only with timezone$/, () => 'solo se aplica junto con el huso horario'],
  [/^applies to a part_time contract only$/, () => 'solo se aplica a un contrato a tiempo parcial'],
  [
    /^is required for part_time when the week is 40 hours or more$/,
    () => 'es obligatorio en un contrato a tiempo parcial de 40 horas semanales o más',
  ],
  [
    /^applies only with work_schedule, vacation_days_per_year, the part-time terms or timezone$/,
    () =>
      'solo se aplica junto con el horario, los días de vacaciones, las condiciones de tiempo parcial o el huso horario',
  ],
  [/^must not nest deeper than (\S+) levels$/, (n) => `no puede anidar más de ${n} niveles`],
  [/^must be after from$/, () => 'debe ser posterior a «desde»'],
  [
    /^names no event type this endpoint subscribes to$/,
    () => 'no nombra ningún tipo de evento al que esté suscrito este destino',
  ],
  [
    /^the range holds more than (\d+) events of these types: narrow it, or name fewer types$/,
    (n) => `el intervalo tiene más de ${n} eventos de estos tipos: acórtelo o indique menos tipos`,
  ],
  [/^must be at most (\d+) days after from$/, (n) => `debe ser como mucho ${n} días posterior a «desde»`],
  [/^has no working day$/, () => 'no tiene ningún día de trabajo'],
  [/^is a shift of a date that has passed$/, () => 'es un turno de una fecha que ya ha pasado'],
  [/^has passed: its shifts no longer change$/, () => 'ya ha pasado: sus turnos no cambian'],
  [
    /^is not a date of the employee’s employment$/,
    () => 'no es una fecha de la relación laboral del empleado',
  ],
  [/^is not a shift template of this company$/, () => 'no es una plantilla de turno de esta empresa'],
  [/^is not a shift of this company$/, () => 'no es un turno de esta empresa'],
  [/^is replaced twice in this request$/, () => 'se sustituye dos veces en esta petición'],
  [/^makes the shift longer than 24 hours$/, () => 'hace el turno de más de 24 horas'],
  [/^must be shorter than the shift$/, () => 'debe ser más corta que el turno'],
  [/^overlaps another shift of the employee$/, () => 'se solapa con otro turno del empleado'],
  [/^must be on or after the hire date \((.+)\)$/, (date) => `debe ser igual o posterior al alta (${date})`],
  [/^has not ended yet in (.+)$/, (zone) => `aún no ha terminado en ${zone}`],
  [/^is not a valid cursor for this listing$/, () => 'no es un cursor válido para este listado'],
  [/^must be 1 to 255 characters$/, () => 'debe tener de 1 a 255 caracteres'],
  [/^is not a known IANA time zone$/, () => 'no es una zona horaria IANA conocida'],
  [/^is not a valid MM-DD date$/, () => 'no es una fecha MM-DD válida'],
  [
    /^is not a valid CIF or NIF \(check its control character\)$/,
    () => 'no es un CIF o NIF válido (revisa el carácter de control)',
  ],
  [
    /^is not a valid DNI or NIE \(check its control letter\)$/,
    () => 'no es un DNI o NIE válido (revisa la letra de control)',
  ],
  [/^must have digits only$/, () => 'solo puede tener cifras'],
  [/^must have 12 digits$/, () => 'debe tener 12 cifras'],
  [/^must have 11 digits$/, () => 'debe tener 11 cifras'],
  [
    /^has wrong control digits \(the last two do not match the others\)$/,
    () => 'tiene mal las cifras de control (las dos últimas no cuadran con las demás)',
  ],
  [
    /^is a sandbox; administrators belong to the live company$/,
    () => 'es un entorno de pruebas; los administradores pertenecen a la empresa real',
  ],
  [
    /^is set on the live company; a sandbox shares it$/,
    () => 'se fija en la empresa real; el entorno de pruebas la comparte',
  ],
  [
    /^is you: another administrator must disable your account$/,
    () => 'eres tú: otro administrador debe desactivar tu cuenta',
  ],
  [/^is you: another owner must change your role$/, () => 'eres tú: otro propietario debe cambiar tu rol'],
  [/^only a team lead has units$/, () => 'solo un responsable de equipo tiene unidades'],
  [/^is this unit or a unit below it$/, () => 'es esta unidad o una que depende de ella'],
  [/^must be a Monday$/, () => 'debe ser un lunes'],
  [/^must be a date \(YYYY-MM-DD or DD\/MM\/YYYY\)$/, () => 'debe ser una fecha (AAAA-MM-DD o DD/MM/AAAA)'],
  [
    /^must be a time span like 08:00-16:00 \(a break in minutes after it\) or a template’s name$/,
    () =>
      'debe ser un horario como 08:00-16:00 (con la pausa en minutos detrás) o el nombre de una plantilla',
  ],
  [/^places more than (\d+) shifts$/, (shifts) => `coloca más de ${shifts} turnos`],
  [
    /^lacks the columns employee, week and the days \(or their Spanish names\)$/,
    () => 'le faltan las columnas de la persona, la semana y los días',
  ],
  [/^has no header row$/, () => 'no tiene fila de cabecera'],
  [/^has no rows under its header$/, () => 'no tiene filas bajo la cabecera'],
  [/^has more than (\d+) rows$/, (rows) => `tiene más de ${rows} filas`],
  [/^is not a readable CSV file$/, () => 'no es un archivo CSV legible'],
  [/^is not a readable XLSX file$/, () => 'no es un archivo XLSX legible'],
  [/^has no sheet$/, () => 'no tiene ninguna hoja'],
  [/^lacks the columns (.+) \(or their Spanish names\)$/, (columns) => `le faltan las columnas ${columns}`],
  [
    /^is not the name of a work centre of this company$/,
    () => 'no es el nombre de un centro de trabajo de esta empresa',
  ],
  [/^is not the name of a unit of this company$/, () => 'no es el nombre de una unidad de esta empresa'],
  [/^a team lead needs at least one unit$/, () => 'un responsable de equipo necesita al menos una unidad'],
  [/^includes a unit that is not of this company$/, () => 'incluye una unidad que no es de esta empresa'],
];

/** Problem details: whole sentences. */
const DETAIL_RULES: Rule[] = [
  // Passkeys (issue 35).
  [/^Sign this approval with your passkey\.$/, () => 'Firma esta aprobación con tu llave de acceso.'],
  [/^This passkey does not open a session here\.$/, () => 'Esta llave de acceso no abre sesión aquí.'],
  [/^This passkey is registered already\.$/, () => 'Esta llave de acceso ya está registrada.'],
  [
    /^You already have a passkey: sign in with it to add another \(a password session cannot add one\)\.$/,
    () =>
      'Ya tienes una llave de acceso: entra con ella para añadir otra (una sesión con contraseña no puede).',
  ],
  [
    /^Sign in with a passkey to remove one \(a password session cannot\)\.$/,
    () => 'Entra con una llave de acceso para quitar una (una sesión con contraseña no puede).',
  ],
  [/^You have (\d+) passkeys: remove one first\.$/, (n) => `Tienes ${n} llaves de acceso: quita una antes.`],
  [
    /^The correction waits for no approval of yours\.$/,
    () => 'La corrección no espera ninguna aprobación tuya.',
  ],
  [/^The email or the password is wrong\.$/, () => 'El correo o la contraseña no son correctos.'],
  [
    /^Too many failed logins for this email or from this address\. Try again in (\d+) seconds\.$/,
    (s) =>
      `Demasiados intentos fallidos con este correo o desde esta dirección. Vuelve a intentarlo en ${s} segundos.`,
  ],
  [/^Log in to the dashboard first\.$/, () => 'Inicia sesión en el panel primero.'],
  [
    /^The X-CSRF-Token header is missing or does not match\.$/,
    () => 'La sesión no es válida en esta pestaña. Recarga la página.',
  ],
  [
    /^The range overlaps absence (\S+) of the same employee, which is requested or approved\.$/,
    () => 'Las fechas se solapan con otra ausencia del mismo empleado, solicitada o aprobada.',
  ],
  [
    /^The absence is (\w+); it can be (\w+) only while (.+)\.$/,
    (status, to, from) =>
      `La ausencia está ${STATUS[status] ?? status}; solo puede ${ACTION[to] ?? to} mientras esté ${from
        .split(/, | or /)
        .map((word) => STATUS[word] ?? word)
        .join(' o ')}.`,
  ],
  [
    /^The month (\d{4}-\d{2}) is closed: (.+) would change its figures\. Record the change with a correction\.$/,
    (month) => `El mes ${month} está cerrado: el cambio alteraría sus cifras. Regístralo con una corrección.`,
  ],
  [/^The month (\d{4}-\d{2}) is already closed\.$/, (month) => `El mes ${month} ya está cerrado.`],
  [
    /^The correction is (\w+): a decided correction does not change\.$/,
    (status) => `La corrección está ${STATUS[status] ?? status}: una corrección decidida no cambia.`,
  ],
  [
    /^Check-in (\S+) is no longer active: the correction cannot apply\.$/,
    () => 'Uno de los fichajes ya no está activo: la corrección no se puede aplicar.',
  ],
  [
    /^An addition of the correction no longer holds: it cannot apply\.$/,
    () => 'Un fichaje añadido por la corrección ya no es válido: no se puede aplicar.',
  ],
  [
    /^A check-in at (\S+) would fall outside the employment: void it with a correction first\.$/,
    () => 'Un fichaje quedaría fuera de la relación laboral: anúlalo antes con una corrección.',
  ],
  [
    /^The employee was already terminated on (\d{4}-\d{2}-\d{2})\.$/,
    (date) => `El empleado ya causó baja el ${date}.`,
  ],
  [
    /^Every seat of the plan is taken by an active employee\. Terminate an employee or add seats\.$/,
    () => 'Todas las plazas del plan están ocupadas. Da de baja a un empleado o amplía el plan.',
  ],
  [
    /^The company already has (\d+) active keys \(max_active_keys is (\d+)\)\. Revoke one first\.$/,
    (active, max) =>
      `La empresa ya tiene ${active} claves activas (el máximo es ${max}). Revoca una primero.`,
  ],
  [
    /^A company may have at most (\d+) active webhook endpoints\. Disable or delete one first\.$/,
    (max) => `Una empresa puede tener como mucho ${max} webhooks activos. Desactiva o elimina uno primero.`,
  ],
  [
    /^The webhook endpoint is disabled; re-enable it \(PATCH status active\) first\.$/,
    () => 'El webhook está desactivado; actívalo primero.',
  ],
  [
    /^The delivery is still pending: it is already queued for its next attempt\.$/,
    () => 'El envío sigue pendiente: ya está en cola para su próximo intento.',
  ],
  [
    /^This company already has (\d+) reports queued or generating; request more once they complete\.$/,
    (n) => `La empresa ya tiene ${n} informes en cola o en curso; pide más cuando terminen.`,
  ],
  [
    /^The company would have no active administrator left\.$/,
    () => 'La empresa se quedaría sin ningún administrador activo.',
  ],
  [
    /^An administrator with this email already exists\.$/,
    () => 'Ya existe un administrador con este correo.',
  ],
  [
    /^The public API addon is off for this company; enable it first\.$/,
    () => 'El complemento de API pública está desactivado para esta empresa; actívalo primero.',
  ],
  [
    /^The public API addon is not active for this company\.$/,
    () => 'El complemento de API pública no está activo para esta empresa.',
  ],
  [/^The company has no active service\.$/, () => 'La empresa no tiene el servicio activo.'],
  [
    /^Rate limit of (\d+) requests per minute exceeded\.$/,
    (n) => `Se ha superado el límite de ${n} peticiones por minuto.`,
  ],
  [
    /^The database is unavailable\. Retry after the Retry-After seconds\.$/,
    () => 'La base de datos no está disponible. Vuelve a intentarlo en unos segundos.',
  ],
  [
    /^An internal error occurred\. It has been logged with the request id\.$/,
    () => 'Se ha producido un error interno. Ha quedado registrado con el identificador de la petición.',
  ],
  [/^The URL names no resource\.$/, () => 'La dirección no corresponde a ningún recurso.'],
  [
    /^This invitation does not exist, was used already or has expired\.$/,
    () => 'Este enlace no existe, ya se usó o ha caducado: pide a tu empresa uno nuevo.',
  ],
  [/^This invitation does not exist\.$/, () => 'Esta invitación no existe.'],
  [/^(.+) not found\.$/, () => 'No se ha encontrado.'],
  [
    /^The service cannot be reached\. Check your connection\.$/,
    () => 'No se puede contactar con el servicio. Comprueba la conexión.',
  ],
  [/^The service answered (\d+)\.$/, (status) => `El servicio respondió ${status}.`],
];

const STATUS: Record<string, string> = {
  requested: 'solicitada',
  approved: 'aprobada',
  rejected: 'rechazada',
  cancelled: 'cancelada',
  pending: 'pendiente',
  applied: 'aplicada',
};
const ACTION: Record<string, string> = {
  approved: 'aprobarse',
  rejected: 'rechazarse',
  cancelled: 'cancelarse',
};

/** A sentence for each problem code, for a detail no rule knows. */
export const CODE_SENTENCES: Record<string, string> = {
  validation_failed: 'Revisa los datos enviados.',
  not_found: 'No se ha encontrado.',
  role_forbidden: 'Tu rol no permite hacerlo.',
  conflict: 'No es posible en el estado actual.',
  unauthenticated: 'Inicia sesión de nuevo.',
  rate_limited: 'Demasiadas peticiones; espera un momento.',
  internal_error: 'Se ha producido un error interno.',
  service_unavailable: 'El servicio no está disponible ahora.',
  network_error: 'No se puede contactar con el servicio.',
};

function apply(rules: Rule[], message: string): string | null {
  for (const [pattern, render] of rules) {
    const match = pattern.exec(message);
    if (match) return render(...match.slice(1).map((group) => group ?? ''));
  }
  return null;
}

/** A field message in Spanish, or null when no rule knows it. */
export const spanishFieldMessage = (message: string) => apply(FIELD_RULES, message);

/** A problem's detail in Spanish, or null when no rule knows it. */
export const spanishDetail = (detail: string) => apply(DETAIL_RULES, detail);

/** The API's field names as a Spanish reader names them (the last part of a path: `params.month` → `month`). */
export const SPANISH_FIELD_NAMES: Record<string, string> = {
  add: 'Fichaje añadido',
  capture: 'Ubicación al fichar',
  location_capture: 'Ubicación al fichar',
  geofence: 'Área del centro',
  latitude: 'Latitud',
  longitude: 'Longitud',
  radius_m: 'Radio (m)',
  assertion: 'Firma con llave de acceso',
  response: 'Respuesta de la llave de acceso',
  address: 'Dirección',
  addon_enabled: 'Complemento',
  body: 'Petición',
  ccc: 'CCC',
  cursor: 'Cursor',
  csrf_token: 'Token de sesión',
  date: 'Fecha',
  description: 'Descripción',
  effective_from: 'Desde',
  email: 'Correo electrónico',
  employee_id: 'Empleado',
  employee_ids: 'Trabajadores',
  end_date: 'Hasta',
  events: 'Eventos',
  expires_at: 'Caduca el',
  expires_in_days: 'Caduca en (días)',
  external_id: 'Identificador externo',
  first_name: 'Nombre',
  format: 'Formato',
  from: 'Desde',
  hire_date: 'Fecha de alta',
  id: 'Identificador',
  key: 'Clave',
  kind: 'Para',
  label: 'Etiqueta',
  language: 'Idioma',
  last_name: 'Apellidos',
  late_record_hours: 'Registro tardío a partir de (horas)',
  legal_name: 'Razón social',
  limit: 'Límite',
  locale: 'Idioma',
  concept_map_id: 'Mapa de conceptos',
  location_id: 'Centro de trabajo',
  month: 'Mes',
  name: 'Nombre',
  national_id: 'DNI/NIE',
  note: 'Nota',
  opening_banked_minutes: 'Saldo inicial de la bolsa de horas',
  password: 'Contraseña',
  reason: 'Motivo',
  scopes: 'Permisos',
  social_security_number: 'Número de la Seguridad Social (NAF)',
  start_date: 'Desde',
  status: 'Estado',
  tax_id: 'CIF/NIF',
  default_region: 'Comunidad autónoma de la empresa',
  region: 'Comunidad autónoma',
  municipality: 'Municipio',
  start: 'Inicio',
  end: 'Fin',
  break_minutes: 'Pausa (minutos)',
  termination_date: 'Último día',
  timestamp: 'Hora',
  timezone: 'Zona horaria',
  to: 'Hasta',
  tracking_start_date: 'Inicio del registro',
  type: 'Tipo',
  unit_id: 'Unidad',
  unit_ids: 'Unidades',
  parent_id: 'Depende de',
  content: 'Archivo',
  role: 'Rol',
  url: 'URL',
  vacation_days_per_year: 'Días de vacaciones al año',
  contract_type: 'Tipo de contrato',
  weekly_minutes: 'Minutos semanales',
  part_time_percentage: 'Porcentaje de jornada parcial',
  complementary_limit_percentage: 'Límite de horas complementarias (%)',
  overtime_compensation: 'Horas extraordinarias',
  void: 'Fichaje anulado',
  work_schedule: 'Horario',
};
