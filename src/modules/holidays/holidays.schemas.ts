import { Type } from 'typebox';
import { CalendarDate, Instant, Uuid } from '../../platform/common.schemas.ts';

export const Holiday = Type.Object({
  id: Uuid(),
  date: CalendarDate(),
  name: Type.String(),
  created_at: Instant(),
  updated_at: Instant(),
});

export const CreateHolidayBody = Type.Object(
  { date: CalendarDate(), name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
