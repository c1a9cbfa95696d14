import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Three pages of one build, served by the service: the company dashboard at /dashboard
 * (src/dashboard/dashboard.plugin.ts), the workers' portal at /portal (src/portal/portal.plugin.ts) and the
 * read-only registry behind an access link at /registry-access/<token>. Their assets share /dashboard/assets/.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: {
        dashboard: `${import.meta.dirname}/index.html`,
        portal: `${import.meta.dirname}/portal.html`,
        access: `${import.meta.dirname}/access.html`,
      },
    },
  },
  logLevel: 'warn',
});
