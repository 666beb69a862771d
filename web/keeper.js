// Curse Companion on the phone: where the games are kept, put ahead of Flet's
// Python worker by web/build.py.
//
// The games live in the browser's IndexedDB through Emscripten's IDBFS, mounted
// where the app looks for its data (FLET_APP_STORAGE_DATA). One tab at a time
// owns them: each tab holds a whole copy of the files and IDBFS writes whole
// files, so a second writer would put its copy over the first one's games.

const KEEPER_FOLDER = "/data/curse-companion";
const KEEPER_LOCK = "curse-companion-games";
const KEEPER_ELSEWHERE = "COMPANION_OPEN_ELSEWHERE";
const KEEPER_WAIT_MS = 3000;

self.keeperMount = null;
self.keeperOutbox = [];
self.keeperFlushing = false;

// Granted for as long as this worker lives, which is as long as its tab. A
// reload waits a moment for the page it replaces to let go; another tab that
// keeps the app open does not let go, and this tab is told so.
self.keeperTakeLock = function () {
    if (!(self.navigator && navigator.locks)) {
        return Promise.resolve(true);
    }
    return new Promise((resolve) => {
        navigator.locks.request(
            KEEPER_LOCK,
            { signal: AbortSignal.timeout(KEEPER_WAIT_MS) },
            () => {
                resolve(true);
                return new Promise(() => {});
            }
        ).catch(() => resolve(false));
    });
};

self.keeperSync = function (fs, populate) {
    return new Promise((resolve, reject) => {
        fs.syncfs(populate, (error) => (error ? reject(error) : resolve()));
    });
};

// Before the app's first line runs: the kept games are in place, or the app
// knows another tab owns them.
self.keeperOpen = async function (pyodide) {
    const env = pyodide.runPython("import os; os.environ");
    if (!(await self.keeperTakeLock())) {
        env.set(KEEPER_ELSEWHERE, "1");
        return;
    }
    const fs = pyodide.FS;
    fs.mkdirTree(KEEPER_FOLDER);
    self.keeperMount = fs.mount(
        fs.filesystems.IDBFS, { autoPersist: true }, KEEPER_FOLDER
    ).mount;
    await self.keeperSync(fs, true);
    env.set("FLET_APP_STORAGE_DATA", KEEPER_FOLDER);
};

// IDBFS marks a write it has still to save; zero once it is in IndexedDB.
self.keeperSaving = function () {
    return self.keeperMount !== null && self.keeperMount.idbPersistState !== 0;
};

// What the app shows waits for what it wrote: a screen never says a tap was
// taken while the tap could still be lost with the tab.
self.keeperSend = function (bytes) {
    self.keeperOutbox.push(bytes);
    if (!self.keeperFlushing) {
        self.keeperFlush();
    }
};

self.keeperFlush = function () {
    if (self.keeperSaving()) {
        self.keeperFlushing = true;
        setTimeout(self.keeperFlush, 2);
        return;
    }
    self.keeperFlushing = false;
    const outbox = self.keeperOutbox;
    self.keeperOutbox = [];
    for (const bytes of outbox) {
        self.postMessage(bytes, [bytes.buffer]);
    }
};
