// Curse Companion on the phone: every file of the app, kept for offline use.
// web/build.py fills in the list and the cache's name (a hash of the files),
// so a new build brings a new cache and the old one is dropped.

const CACHE = "__CACHE_NAME__";
const PRECACHED = __PRECACHED__;
// Flutter loads one of these renderers, whichever the browser can use: it is
// kept on first use rather than downloading both.
const ON_FIRST_USE = /\/canvaskit\//;

self.addEventListener("install", (event) => {
    event.waitUntil(
        caches.open(CACHE)
            .then((cache) => cache.addAll(PRECACHED))
            .then(() => self.skipWaiting())
    );
});

self.addEventListener("activate", (event) => {
    event.waitUntil(
        caches.keys()
            .then((names) => Promise.all(
                names.filter((name) => name !== CACHE)
                    .map((name) => caches.delete(name))
            ))
            .then(() => self.clients.claim())
    );
});

async function answer(request) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) {
        return kept;
    }
    if (request.mode === "navigate") {
        const page = await cache.match("index.html");
        if (page) {
            return page;
        }
    }
    const fetched = await fetch(request);
    if (fetched.ok && ON_FIRST_USE.test(new URL(request.url).pathname)) {
        await cache.put(request, fetched.clone());
    }
    return fetched;
}

self.addEventListener("fetch", (event) => {
    if (event.request.method !== "GET") {
        return;
    }
    if (new URL(event.request.url).origin !== self.location.origin) {
        return;
    }
    event.respondWith(answer(event.request));
});
