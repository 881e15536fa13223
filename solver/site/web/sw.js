/* gonuts service worker: precaches the whole site when it installs, then answers from the cache, so every
 * game works offline after the first visit (the pattern of Squoosh's worker).
 *
 * - Its cache is its own scope's: named by the scope and the site's content hash, so two sites on one
 *   origin (/a/ and /b/) never touch each other's caches, and a new version installs beside the old one.
 * - Every file is checked against the SHA-256 that `gonuts-solve web --site` wrote here: a file served
 *   damaged is not cached (the install fails, and the next visit tries again), never served from the cache.
 * - A new version waits: the page says "a new version is ready" and reloads into it only when the player
 *   asks (skipWaiting on the page's message). Until then the old tab keeps its own version's files.
 */
"use strict";
const VERSION = "@CACHE@";
const FILES = /*@FILES@*/[];
const HASHES = /*@HASHES@*/{};
const SCOPE = new URL(self.registration.scope).pathname;
const PREFIX = `gonuts@${SCOPE}:`;
const CACHE = PREFIX + VERSION;

async function hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/* Fetch every file fresh, check its hash, and only then put them all in the cache. */
async function precache() {
  const cache = await caches.open(CACHE);
  const checked = await Promise.all(FILES.map(async (name) => {
    const response = await fetch(name, { cache: "reload" });
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    const want = HASHES[name];
    if (want && await hex(await response.clone().arrayBuffer()) !== want) throw new Error(`${name} is damaged`);
    return [name, response];
  }));
  await Promise.all(checked.map(([name, response]) => cache.put(name, response)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().catch(async (e) => {
    await caches.delete(CACHE);                 // nothing half-cached is ever served
    throw e;
  }));
});

/* This scope's older versions go once this one is active; so does a cache of the versions before scopes
 * were in the name, when it holds this scope's files. */
async function tidy() {
  for (const key of await caches.keys()) {
    if (key === CACHE) continue;
    if (key.startsWith(PREFIX)) { await caches.delete(key); continue; }
    if (/^gonuts-[0-9a-f]{16}$/.test(key)) {
      const held = await (await caches.open(key)).keys();
      if (held.some((r) => new URL(r.url).pathname.startsWith(SCOPE))) await caches.delete(key);
    }
  }
}
self.addEventListener("activate", (event) => { event.waitUntil(tidy().then(() => self.clients.claim())); });

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "take-new-version") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true })
    .then((hit) => hit || (request.mode === "navigate" ? cache.match("./") : undefined))
    .then((hit) => hit || fetch(request))));
});
