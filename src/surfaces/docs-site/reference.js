// The API reference: Redoc (served from this service) renders this deployment's OpenAPI description.
/* global Redoc */
const element = document.getElementById('reference');
Redoc.init(
  '/v1/openapi.json',
  {
    expandResponses: '200,201,202',
    jsonSampleExpandLevel: 3,
    hideDownloadButton: false,
    pathInMiddlePanel: true,
    theme: {
      colors: { primary: { main: '#0b5cad' } },
      typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } },
      sidebar: { width: '280px' },
    },
  },
  element,
  () => element.setAttribute('data-ready', 'true'),
);
