import { Type } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';

export const LoggedRequest = Type.Object({
  at: Instant(),
  api_key_id: Nullable(Uuid()),
  method: Type.String(),
  path: Type.String({ description: 'The path, without the query string (it may carry signatures).' }),
  status: Type.Integer(),
  duration_ms: Type.Integer(),
  request_id: Type.String({ description: 'The X-Request-Id of the response.' }),
});

export const RequestLog = Type.Object({ data: Type.Array(LoggedRequest) });
