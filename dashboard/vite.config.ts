import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The dashboard is served by the service at /dashboard (src/dashboard/dashboard.plugin.ts). */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  logLevel: 'warn',
});
