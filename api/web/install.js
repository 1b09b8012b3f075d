// Every page: Tilemate installs to a tablet's home screen (manifest.webmanifest) and its pages
// are kept for use with no connection (sw.js). Browsers allow a service worker only on a
// secure address (https://, or the tablet's own http://localhost); elsewhere the pages work as before.
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => { /* the pages work online without it */ });
}
