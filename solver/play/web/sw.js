/* gonuts service worker: precaches the whole site when it installs, then answers from the cache, so every
 * game works offline after the first visit. The cache is named by the content hash of the site: a new
 * version installs beside the old one and removes it once it takes over. */
"use strict";
const CACHE = "@CACHE@";
const FILES = @FILES@;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("gonuts-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true })
    .then((hit) => hit || (request.mode === "navigate" ? cache.match("./") : undefined))
    .then((hit) => hit || fetch(request))));
});
