import { expect, it } from 'vitest';
import { deprecatedUpdatedSinceHeaders } from '../../../src/platform/pagination.ts';

it('sends Deprecation and Sunset only when the deprecated updated_since is used', () => {
  expect(deprecatedUpdatedSinceHeaders(undefined)).toEqual({});
  expect(deprecatedUpdatedSinceHeaders('2026-01-01T00:00:00Z')).toEqual({
    Deprecation: '@1787788800',
    Sunset: 'Fri, 27 Aug 2027 00:00:00 GMT',
  });
});
