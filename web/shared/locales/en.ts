/**
 * English needs only the singular of its plurals: the key is the English text (the plural), and i18next picks
 * `_one` by `count` (Spanish has both forms in es.ts).
 */
export const EN_PLURALS: Record<string, string> = {
  'Check these {{count}} fields:_one': 'Check this field:',
  '{{count}} days_one': '{{count}} day',
  '{{count}} shifts copied from last week as drafts._one':
    '{{count}} shift copied from last week as a draft.',
  '{{count}} shifts published: the workers see them._one': '{{count}} shift published: the worker sees it.',
  'Notifications ({{count}} unread)_one': 'Notifications ({{count}} unread)',
  'Publish the week ({{count}} drafts)_one': 'Publish the week ({{count}} draft)',
  '{{count}} working days._one': '{{count}} working day.',
  '{{count}} entitled_one': '{{count}} entitled',
  '{{count}} carried over_one': '{{count}} carried over',
  'counting {{count}} more requested_one': 'counting {{count}} more requested',
  '{{count}} ignored events_one': '{{count}} ignored event',
  '{{count}} absence requests to decide_one': '{{count}} absence request to decide',
  '{{count}} corrections waiting for the company’s approval_one':
    '{{count}} correction waiting for the company’s approval',
  '{{count}} employees with overtime; most: {{name}}, {{hours}} hours._one':
    '{{count}} employee with overtime: {{name}}, {{hours}} hours.',
  '{{count}} incomplete days_one': '{{count}} incomplete day',
  '{{count}} employees affected; they close with the figures as they stand._one':
    '{{count}} employee affected; it closes with the figures as they stand.',
  '{{count}} absence requests of the month not decided._one':
    '{{count}} absence request of the month not decided.',
  '{{count}} corrections waiting (any month): one that touches the month can no longer apply once it is closed._one':
    '{{count}} correction waiting (any month): if it touches the month, it can no longer apply once it is closed.',
  '{{done}} of {{count}} workers on this page have acknowledged the month’s document._one':
    '{{done}} of {{count}} worker on this page has acknowledged the month’s document.',
  'Approved {{count}} requests._one': 'Approved {{count}} request.',
  'Approve the selected ({{count}})_one': 'Approve the selected ({{count}})',
  'Approve {{count}} requests?_one': 'Approve {{count}} request?',
  'Approved {{count}} corrections._one': 'Approved {{count}} correction.',
  'Approve {{count}} corrections?_one': 'Approve {{count}} correction?',
  'Imported {{count}} employees._one': 'Imported {{count}} employee.',
  '{{count}} rows, all correct. Nothing is imported until you confirm._one':
    '{{count}} row, correct. Nothing is imported until you confirm.',
  '{{bad}} of {{count}} rows have errors: fix them in the file and review it again. Nothing was imported._one':
    '{{bad}} of {{count}} row has errors: fix it in the file and review it again. Nothing was imported.',
  'Import {{count}} employees_one': 'Import {{count}} employee',
  'Place {{count}} draft shifts_one': 'Place {{count}} draft shift',
  'Placed {{count}} draft shifts._one': 'Placed {{count}} draft shift.',
};
