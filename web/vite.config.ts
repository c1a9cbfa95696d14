import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Four apps of one build, served by the service (src/surfaces/pages.ts): the company dashboard at /dashboard
 * (web/dashboard), the workers' portal at /portal (web/portal) and the read-only registry behind an access link at
 * /registry-access/<token> (web/access), and the shared kiosk at /kiosk (web/kiosk); web/shared is theirs in common. Their assets share /dashboard/assets/.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Read by scripts/build-service-workers.ts: which assets each app's service worker keeps.
    manifest: true,
    rollupOptions: {
      input: {
        dashboard: `${import.meta.dirname}/dashboard/index.html`,
        portal: `${import.meta.dirname}/portal/index.html`,
        access: `${import.meta.dirname}/access/index.html`,
        kiosk: `${import.meta.dirname}/kiosk/index.html`,
      },
    },
  },
  logLevel: 'warn',
});
