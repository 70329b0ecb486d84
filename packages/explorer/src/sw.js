// The explorer's service worker (vite.config.mjs fills in the cache name and the list of the page's files):
// it keeps the page's own files so that the page works offline once loaded. Files the user opens never pass
// through it; they are read in the page.
const CACHE = '__CACHE__';
const FILES = ['__FILES__'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  // Older versions of the page's files go.
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('explorer-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // Cached first (the files of one build never change), the network for anything else.
  event.respondWith(caches.match(request, { ignoreSearch: true }).then((hit) => hit ?? fetch(request)));
});
