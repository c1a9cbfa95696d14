import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n.ts';
import { PortalApp } from './App.tsx';
import '../../shared/base.css';
import './portal.css';
import { registerServiceWorker } from '../../shared/offline.ts';

registerServiceWorker('portal');

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <PortalApp />
    </StrictMode>,
  );
}
