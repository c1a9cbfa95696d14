import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      adminToken: null,
      publicUrl: 'http://127.0.0.1:3000',
      fakeClock: false,
      webhooksAllowPrivate: false,
      logLevel: 'info',
      demo: true,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ', JORNADA_ADMIN_TOKEN: '' })).toMatchObject({
      port: 3000,
      databaseUrl: null,
      adminToken: null,
    });
  });

  it('builds the public URL from HOST and PORT unless JORNADA_PUBLIC_URL is set', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://0.0.0.0:8080');
    expect(loadConfig({ JORNADA_PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe(
      'https://api.example.com',
    );
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ JORNADA_ADMIN_TOKEN: 'short' }, /JORNADA_ADMIN_TOKEN/],
    [{ JORNADA_PUBLIC_URL: 'not a url' }, /JORNADA_PUBLIC_URL/],
    [{ JORNADA_FAKE_CLOCK: 'yes' }, /JORNADA_FAKE_CLOCK/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ JORNADA_DEMO: '2' }, /JORNADA_DEMO/],
  ])('stops on a bad value: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
