// Curse Companion on the phone: the page's own part, loaded by index.html.

// The service worker keeps every file of the app, so it opens with no network.
// Browsers run one only over HTTPS or on localhost.
if ("serviceWorker" in navigator) {
    window.addEventListener("load", () => {
        navigator.serviceWorker.register("service-worker.js").catch((error) => {
            console.warn("The app will not open offline:", error);
        });
    });
}

// Ask the browser not to clear the kept games when space runs short.
if (navigator.storage && navigator.storage.persist) {
    navigator.storage.persisted().then((persisted) => {
        if (!persisted) {
            navigator.storage.persist();
        }
    });
}
