// The API reference: Swagger UI from the server's own copy (no CDN), reading /openapi.json.
// A file rather than an inline script, so the Content-Security-Policy can forbid inline scripts.
"use strict";

window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  deepLinking: true,
});
