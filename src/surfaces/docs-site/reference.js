// The API reference: Redoc (served from this service) renders this deployment's OpenAPI description, with a curl
// command and an SDK call on every operation (x-codeSamples, from /docs/assets/code-samples.json).
/* global Redoc */
const element = document.getElementById('reference');
const options = {
  expandResponses: '200,201,202',
  jsonSampleExpandLevel: 3,
  hideDownloadButton: false,
  pathInMiddlePanel: true,
  theme: {
    colors: { primary: { main: '#0b5cad' } },
    typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' } },
    sidebar: { width: '280px' },
  },
};
Promise.all([
  fetch('/v1/openapi.json').then((response) => response.json()),
  fetch('/docs/assets/code-samples.json')
    .then((response) => (response.ok ? response.json() : {}))
    .catch(() => ({})),
])
  .then(([description, samples]) => {
    for (const verbs of Object.values(description.paths ?? {})) {
      for (const operation of Object.values(verbs)) {
        const own = operation && samples[operation.operationId];
        if (own) operation['x-codeSamples'] = own;
      }
    }
    Redoc.init(description, options, element, () => element.setAttribute('data-ready', 'true'));
  })
  .catch((error) => {
    // Said on the page rather than left at "Loading…".
    element.textContent = `The reference could not be loaded (${error.message}). Reload the page to try again.`;
  });
