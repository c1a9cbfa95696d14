import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.ts';

/**
 * The compose files an operator starts from (issue 37): every node restarts and is checked by its /readyz, every
 * setting they give is one the service reads and accepts, and the scaled example shares no disk between nodes.
 */
type Service = {
  command?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  environment?: Record<string, string>;
  volumes?: string[];
};

async function services(file: string): Promise<Record<string, Service>> {
  return (parse(await readFile(file, 'utf8'), { merge: true }) as { services: Record<string, Service> })
    .services;
}

const nodesOf = (all: Record<string, Service>) =>
  Object.entries(all).filter(([, service]) => service.command?.[0] === 'serve');

/** The service's settings as compose gives them, with the variables the operator sets filled in. */
function settingsOf(service: Service): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      value
        .replace(/\$\{POSTGRES_PASSWORD\}/g, 'secret')
        .replace(/\$\{JORNADA_ADMIN_TOKEN[^}]*\}/g, 'a-token-of-24-characters')
        .replace(/\$\{S3_SECRET[^}]*\}/g, 'secret')
        .replace(/\$\{JORNADA_PUBLIC_URL:-([^}]*)\}/g, '$1')
        .replace(/\$\{JORNADA_METRICS_TOKEN:-\}/g, ''),
    ]),
  );
}

describe('the compose files', () => {
  for (const file of ['compose.yaml', 'deploy/compose.scaled.yaml']) {
    it(`${file}: every node restarts, is checked on /readyz, and has settings the service accepts`, async () => {
      const nodes = nodesOf(await services(file));
      expect(nodes.length).toBeGreaterThanOrEqual(2);
      for (const [, node] of nodes) {
        expect(node.restart).toBe('unless-stopped');
        expect(node.healthcheck?.test.join(' ')).toContain('/readyz');
        const settings = settingsOf(node);
        for (const name of Object.keys(settings)) {
          expect(name).toMatch(/^(DATABASE_URL|JORNADA_[A-Z0-9_]+)$/);
        }
        expect(() => loadConfig(settings)).not.toThrow();
      }
    });
  }

  it('scales to two API nodes and two workers with report files in a bucket and no shared disk', async () => {
    const all = await services('deploy/compose.scaled.yaml');
    const nodes = nodesOf(all);
    expect(nodes.filter(([, node]) => node.command?.includes('--role=api'))).toHaveLength(2);
    expect(nodes.filter(([, node]) => node.command?.includes('--role=worker'))).toHaveLength(2);
    for (const [, node] of nodes) {
      expect(node.volumes ?? []).toEqual([]);
      expect(loadConfig(settingsOf(node)).reportsStore).toMatchObject({
        kind: 's3',
        bucket: 'jornada-reports',
      });
    }
    // Exactly one node migrates.
    expect(nodes.filter(([, node]) => loadConfig(settingsOf(node)).migrateOnStart)).toHaveLength(1);
  });
});
