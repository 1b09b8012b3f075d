/**
 * The API's pages (/docs, @fastify/swagger-ui) made readable on a phone: Swagger UI's page has
 * no viewport meta, so a phone lays it out 980 px wide and shrinks it. The theme's script (served
 * from /docs/static/theme, so the pages' CSP that allows only the server's own scripts lets it
 * run) adds the meta; its style sheet lets long paths, descriptions and examples wrap.
 */

const viewport = `(function () {
  if (document.querySelector('meta[name="viewport"]')) return;
  var m = document.createElement('meta');
  m.name = 'viewport';
  m.content = 'width=device-width, initial-scale=1';
  document.head.appendChild(m);
})();
`;

const narrow = `
.swagger-ui .wrapper { padding: 0 12px; box-sizing: border-box; }
.swagger-ui .information-container, .swagger-ui .scheme-container { overflow-wrap: anywhere; }
.swagger-ui .opblock-summary-path, .swagger-ui .opblock-summary-path__deprecated { overflow-wrap: anywhere; word-break: break-word; }
.swagger-ui .markdown p, .swagger-ui .renderedMarkdown p, .swagger-ui .info p { overflow-wrap: anywhere; }
.swagger-ui pre, .swagger-ui .microlight, .swagger-ui .highlight-code > pre { white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; }
.swagger-ui .model-box, .swagger-ui .model { white-space: normal; overflow-wrap: anywhere; }
@media (max-width: 700px) {
  .swagger-ui .info { margin: 20px 0; }
  .swagger-ui .info .title { font-size: 26px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-description { flex: 1 1 100%; }
  .swagger-ui .opblock .opblock-summary-control { flex-wrap: wrap; }
  .swagger-ui .opblock-body, .swagger-ui .opblock .opblock-section-header { overflow-x: auto; }
  .swagger-ui table { display: block; overflow-x: auto; max-width: 100%; }
  .swagger-ui .parameters-col_description { width: auto; }
  .swagger-ui .scheme-container .schemes { flex-wrap: wrap; }
  .swagger-ui section.models { overflow-x: auto; }
}
`;

export const docsTheme = {
  title: 'Tilemate API',
  js: [{ filename: 'viewport.js', content: viewport }],
  css: [{ filename: 'narrow.css', content: narrow }],
};
