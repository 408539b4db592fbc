#!/usr/bin/env python3
"""The studio in a real browser: headless Chromium driven over WebDriver (chromedriver), plain HTTP from urllib.

Starts its own segued (a temporary plugins folder holding a copy of dt-slide.lua) and segue-studio, then checks:
the token refusal (403, also for a foreign Host or Origin), the plugin list, an animator playing, scrubbing (the
real interactive transition, cancelled), an interaction plugin driving the scrubber with pan gestures (its
thresholds deciding), a save of the plugin's file changing dataset.duration on the same document
(within 3 s), and a broken save showing its error while the last good version keeps playing. Saves a screenshot.

Usage: studio_browser_test.py --bin .build/debug [--screenshot FILE]
Exit status: 0 passed, 1 failed, 77 skipped (no chromium or chromedriver: the reason is printed).
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = 77


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def wait_for(what, probe, timeout=15.0):
    """Polls probe() until it returns a true value; its last value, or a Failure naming `what`."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = probe()
            if last:
                return last
        except (urllib.error.URLError, ConnectionError, KeyError):
            pass
        time.sleep(0.05)
    raise Failure(f"timed out waiting for {what} (last: {last!r})")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(url, headers=None, method="GET", body=None):
    request = urllib.request.Request(url, headers=headers or {}, method=method, data=body)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class WebDriver:
    """Just enough of the W3C WebDriver protocol."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def _call(self, method, path, payload=None):
        body = json.dumps(payload).encode() if payload is not None else None
        status, data = http(self.base + path, {"Content-Type": "application/json"}, method, body)
        value = json.loads(data or b"{}").get("value")
        if status != 200:
            raise Failure(f"webdriver {method} {path}: {status} {value}")
        return value

    def start(self, chromium):
        options = {"binary": chromium, "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                                 "--disable-dev-shm-usage", "--window-size=1280," + os.environ.get("STUDIO_TEST_HEIGHT", "1100")]}
        value = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options}}})
        self.session = value["sessionId"]

    def go(self, url):
        self._call("POST", f"/session/{self.session}/url", {"url": url})

    def js(self, script, *args):
        return self._call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": list(args)})

    def dataset(self):
        return self.js("return Object.assign({}, document.body.dataset);")

    def screenshot(self, path):
        import base64
        png = base64.b64decode(self._call("GET", f"/session/{self.session}/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def quit(self):
        if self.session:
            try:
                self._call("DELETE", f"/session/{self.session}")
            except Failure:
                pass


def dt_slide(duration, extra=""):
    with open(os.path.join(ROOT, "plugins", "dt-slide.lua")) as f:
        text = f.read()
    check("return 0.28" in text, "plugins/dt-slide.lua no longer returns 0.28 from duration")
    return text.replace("return 0.28", f"return {duration}") + extra


def save(path, text):
    """Saves the way most editors do: a temporary file renamed over the original."""
    tmp = path + ".tmp~"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


def run(args, chromium, chromedriver):
    work = tempfile.mkdtemp(prefix="segue-studio-test-")
    procs = []
    driver = None
    try:
        plugins = os.path.join(work, "plugins")
        os.mkdir(plugins, 0o755)
        plugin_file = os.path.join(plugins, "dt-slide.lua")
        save(plugin_file, dt_slide(0.28))
        shutil.copy(os.path.join(ROOT, "plugins", "side-panel.lua"), plugins)
        shutil.copy(os.path.join(ROOT, "plugins", "normal-dismiss.lua"), plugins)
        sock = os.path.join(work, "d.sock")
        daemon = subprocess.Popen([os.path.join(args.bin, "segued"), "--plugins", plugins, "--socket", sock],
                                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "segued.log"), "w"))
        procs.append(daemon)
        wait_for("the daemon's socket", lambda: os.path.exists(sock))
        studio = subprocess.Popen([os.path.join(args.bin, "segue-studio"), "--socket", sock],
                                  stdout=subprocess.PIPE, stderr=open(os.path.join(work, "studio.log"), "w"), text=True)
        procs.append(studio)
        url = studio.stdout.readline().strip()
        check(url.startswith("http://127.0.0.1:") and "/?token=" in url, f"first line is not the URL: {url!r}")
        port = int(url.split(":")[2].split("/")[0])
        base = f"http://127.0.0.1:{port}"
        token = url.split("token=")[1]
        print(f"studio at {base}")

        # The token refusal, and the Host and Origin checks.
        check(http(base + "/")[0] == 403, "a request without the token was not refused")
        check(http(base + "/?token=" + "0" * len(token))[0] == 403, "a wrong token was not refused")
        check(http(url, {"Host": f"evil.example:{port}"})[0] == 403, "a foreign Host was not refused")
        check(http(url, {"Origin": "http://evil.example"})[0] == 403, "a foreign Origin was not refused")
        check(http(f"{base}/ws", {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                                  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})[0] == 403,
              "a WebSocket upgrade without the token was not refused")
        status, page = http(url)
        check(status == 200 and b"segued studio" in page, f"the page with the token: {status}")
        print("ok: token, Host and Origin refusals (403); the page with the token (200)")

        wd_port = free_port()
        procs.append(subprocess.Popen([chromedriver, f"--port={wd_port}"], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        driver = WebDriver(wd_port)
        wait_for("chromedriver", lambda: http(f"{driver.base}/status")[0] == 200)
        driver.start(chromium)

        driver.go(base + "/")
        check("forbidden" in driver.js("return document.body.innerText;"), "the browser got the page without a token")
        driver.go(url + "#animator=dt-slide")
        driver.js("window.sameDocument = 'yes';")

        names = wait_for("the plugin list", lambda: driver.js(
            "return [...document.querySelectorAll('#plugins li')].map(li => li.dataset.plugin);"))
        check("dt-slide" in names and "side-panel" in names, f"plugin list: {names}")
        print(f"ok: the plugin list {names}")
        # Each plugin's load label sits on its name's row (not floated onto the next plugin's), and the animator
        # on show is marked from the start.
        rows = driver.js("return [...document.querySelectorAll('#plugins li')].map(li => {"
                         "const n = li.querySelector('.name').getBoundingClientRect();"
                         "const g = li.querySelector('.gen').getBoundingClientRect();"
                         "const box = li.getBoundingClientRect();"
                         "return [li.dataset.plugin, g.top < n.bottom && n.top < g.bottom && g.right <= box.right,"
                         "li.classList.contains('current')]; });")
        misplaced = [name for name, on_row, _ in rows if not on_row]
        check(not misplaced, f"load labels not on their plugin's row: {misplaced}")
        wait_for("dt-slide marked current", lambda: driver.js(
            "const li = document.querySelector('#plugins li.current'); return li && li.dataset.plugin;") == "dt-slide")

        ds = wait_for("dt-slide playing", lambda: (lambda d: d if d.get("state") == "playing"
                                                   and d.get("duration") == "0.28" else None)(driver.dataset()))
        check(ds.get("animator") == "dt-slide" and ds.get("version") == "1", f"dataset: {ds}")
        first = float(ds["time"])
        wait_for("the playhead to move", lambda: float(driver.dataset()["time"]) != first)
        wait_for("frames drawn", lambda: driver.js(
            "return document.querySelectorAll('.stage [data-view=\"to.view\"]').length;") == 1)
        wait_for("the filmstrip and curves", lambda: driver.js(
            "return document.querySelectorAll('.picture.strip img, .picture.chart img').length;") == 2)
        print(f"ok: dt-slide playing (duration {ds['duration']} s, version {ds['version']})")

        # The Movie button: the studio makes the GIF seguectl movie makes and offers it (a blob: URL the page's CSP
        # lets it show).
        if shutil.which("ffmpeg") and shutil.which("rsvg-convert"):
            driver.js("document.getElementById('movie-fps').value = '10'; document.getElementById('movie').click();")
            movie = wait_for("the movie", lambda: (lambda d: d if d.get("movie") in ("ready", "failed") else None)(
                driver.dataset()), timeout=60.0)
            status = driver.js("return document.getElementById('movie-status').innerText;")
            check(movie.get("movie") == "ready", f"the movie failed: {status!r}")
            check(movie.get("movieName") == "dt-slide-select.gif", f"movie name: {movie.get('movieName')}")
            size = wait_for("the movie's preview", lambda: driver.js(
                "const i = document.querySelector('#movie-result img');"
                "return i && i.complete && i.naturalWidth ? [i.naturalWidth, i.naturalHeight] : null;"))
            check(size == [320, 480], f"the preview is {size}")
            link = driver.js("const a = document.querySelector('#movie-result a'); return [a.download, a.href];")
            check(link[0] == "dt-slide-select.gif" and link[1].startswith("blob:"), f"the download link: {link}")
            print(f"ok: the Movie button made {movie.get('movieName')} ({movie.get('movieBytes')} bytes), shown at {size}")
        else:
            print("skipped: the Movie button (no ffmpeg or rsvg-convert here)")

        # Scrubbing: the real interactive transition; released before half-way, it cancels.
        driver.js("const s = document.getElementById('scrub');"
                  "s.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));"
                  "s.value = 300; s.dispatchEvent(new Event('input', {bubbles: true}));")
        wait_for("the scrub to reach 30 %", lambda: (lambda d: d.get("state") == "scrubbing"
                                                      and abs(float(d.get("percent", -1)) - 0.3) < 1e-6)(driver.dataset()))
        transform = driver.js("return getComputedStyle(document.querySelector("
                              "'.stage [data-view=\"to.view\"]')).transform;")
        check(transform not in ("none", "matrix(1, 0, 0, 1, 0, 0)"), f"the to-view does not move: {transform}")
        driver.js("const s = document.getElementById('scrub');"
                  "s.dispatchEvent(new Event('change', {bubbles: true}));")
        wait_for("the cancel to complete", lambda: driver.dataset().get("completed") == "false")
        print(f"ok: scrubbed to 30 % (to-view at {transform}), released, cancelled")
        driver.js("document.getElementById('play').click();")
        wait_for("playing again", lambda: driver.dataset().get("state") == "playing")

        # Hot reload: a save changes what plays, on the same document.
        save(plugin_file, dt_slide(0.5))
        started = time.monotonic()
        try:
            ds = wait_for("the new duration", lambda: (lambda d: d if d.get("duration") == "0.5" else None)(
                driver.dataset()), timeout=3.0)
        except Failure as failure:
            plugins = driver.js("return document.getElementById('plugins').innerText;")
            error = driver.js("return document.getElementById('plugin-error').innerText;")
            raise Failure(f"{failure}; dataset {driver.dataset()}; plugins {plugins!r}; error {error!r}")
        took = time.monotonic() - started
        check(driver.js("return window.sameDocument;") == "yes", "the page was reloaded")
        check(ds.get("version") == "2", f"version after the save: {ds.get('version')}")
        print(f"ok: the save played within {took:.2f} s (duration {ds['duration']}, version {ds['version']}), "
              "same document")

        # A broken save: its error in place, the last good version still playing.
        save(plugin_file, dt_slide(0.5, "\nthis is not lua\n"))
        error = wait_for("the error in place", lambda: driver.js(
            "const e = document.getElementById('plugin-error');"
            "return e.classList.contains('show') ? e.textContent : '';"), timeout=3.0)
        check("line" in error, f"the error does not name its line: {error}")
        ds = driver.dataset()
        check(ds.get("duration") == "0.5" and ds.get("version") == "2", f"after a broken save: {ds}")
        now = float(ds["time"])
        wait_for("still playing", lambda: float(driver.dataset()["time"]) != now)
        print(f"ok: a broken save shows {error.splitlines()[0]!r}; version 2 keeps playing")

        # Compare with the previous version, side by side.
        save(plugin_file, dt_slide(0.4))
        wait_for("version 3", lambda: driver.dataset().get("version") == "3", timeout=3.0)
        driver.js("const c = document.getElementById('compare'); c.value = 'dt-slide@previous';"
                  "c.dispatchEvent(new Event('change'));")
        titles = wait_for("two lanes", lambda: (lambda t: t if len(t) == 2 else None)(driver.js(
            "return [...document.querySelectorAll('.lane .title')].map(t => t.textContent);")))
        check("0.4 s" in titles[0] and "dt-slide@previous" in titles[1] and "0.5 s" in titles[1],
              f"compare lanes: {titles}")
        shown = driver.js("return document.getElementById('time').textContent;")
        check(" · dt-slide " in shown and shown.endswith(" %"), f"side by side, whose percent it is: {shown!r}")
        print(f"ok: compare {titles}, {shown!r}")

        # A present in the custom style with a presentation plugin: the presented view gets the plugin's frame.
        driver.js("const set = (id, v) => { const e = document.getElementById(id); e.value = v; };"
                  "set('compare', ''); set('kind', 'present'); set('style', 'custom');"
                  "set('presentation', 'side-panel'); set('animator', 'side-panel-slide');"
                  "document.getElementById('animator').dispatchEvent(new Event('change'));")
        wait_for("side-panel-slide playing", lambda: (lambda d: d.get("animator") == "side-panel-slide"
                                                      and d.get("state") == "playing")(driver.dataset()))
        widths = wait_for("the presented panel", lambda: driver.js(
            "const v = document.querySelector('.stage [data-view=\"to.view\"]');"
            "return v ? [v.offsetWidth, document.querySelector('.stage [data-view=\"window\"]').offsetWidth] : null;"))
        check(0 < widths[0] < widths[1], f"the side panel is not narrower than the window: {widths}")
        print(f"ok: present, custom style, side-panel: the panel is {widths[0]} of {widths[1]} wide")

        # An interaction plugin drives the scrubber with pan gestures; its own thresholds decide. swipe-up's percent
        # is translation.y / 400 and it finishes past 0.5: the slider at 45 % of a 480-point scene pans 216 points
        # down, 54 % — finished, where the studio's own 50 % rule would have cancelled.
        driver.js("const set = (id, v) => { const e = document.getElementById(id); e.value = v; };"
                  "set('compare', ''); set('kind', 'dismiss'); set('style', 'fullScreen'); set('presentation', '');"
                  "set('animator', 'normal-dismiss'); set('interaction', 'swipe-up');"
                  "document.getElementById('animator').dispatchEvent(new Event('change'));")
        wait_for("normal-dismiss playing", lambda: (lambda d: d.get("animator") == "normal-dismiss"
                                                    and d.get("state") == "playing")(driver.dataset()))

        def pan(value, percent):
            driver.js("const s = document.getElementById('scrub');"
                      "s.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));"
                      f"s.value = {value}; s.dispatchEvent(new Event('input', {{bubbles: true}}));")
            return wait_for(f"swipe-up's percent {percent} for the slider at {value / 10} %", lambda: (
                lambda d: d if d.get("state") == "scrubbing" and abs(float(d.get("percent", -1)) - percent) < 1e-3
                else None)(driver.dataset()))

        ds = pan(450, 0.54)
        check(ds.get("interaction") == "swipe-up" and ds.get("gesture") == "down", f"the gesture: {ds}")
        time.sleep(0.15)  # held still: the release's velocity is 0
        driver.js("document.getElementById('scrub').dispatchEvent(new Event('change', {bubbles: true}));")
        wait_for("swipe-up to finish", lambda: driver.dataset().get("completed") == "true")
        pan(300, 0.36)
        time.sleep(0.15)
        driver.js("document.getElementById('scrub').dispatchEvent(new Event('change', {bubbles: true}));")
        wait_for("swipe-up to cancel", lambda: driver.dataset().get("completed") == "false")
        print("ok: swipe-up drives the scrubber downwards: 45 % of the slider is its 54 %, finished; 30 % cancelled")
        driver.js("const e = document.getElementById('interaction'); e.value = '';"
                  "e.dispatchEvent(new Event('change'));")
        wait_for("playing again", lambda: driver.dataset().get("state") == "playing")

        # The daemon restarts: the page says so, reconnects and builds its scene again.
        procs.remove(daemon)
        daemon.terminate()
        daemon.wait(timeout=10)
        wait_for("the page to see the daemon go", lambda: driver.dataset().get("connected") == "false")
        daemon = subprocess.Popen([os.path.join(args.bin, "segued"), "--plugins", plugins, "--socket", sock],
                                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "segued2.log"), "w"))
        procs.insert(0, daemon)
        try:
            wait_for("the page to reconnect and play", lambda: (lambda d: d.get("connected") == "true"
                                                                 and d.get("state") == "playing")(driver.dataset()))
        except Failure as failure:
            error = driver.js("return document.getElementById('plugin-error').innerText;")
            raise Failure(f"{failure}; dataset {driver.dataset()}; error {error!r}")
        note = driver.js("return document.getElementById('banner').innerText;")
        check("restarted" in note, f"the page does not say the daemon restarted: {note!r}")
        check(driver.js("return window.sameDocument;") == "yes", "the page was reloaded")
        print(f"ok: daemon restart: {note!r}")

        if args.screenshot:
            time.sleep(0.3)
            driver.screenshot(args.screenshot)
            print(f"screenshot: {args.screenshot}")
        return 0
    finally:
        if driver:
            driver.quit()
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        print("SKIP: the studio's browser test needs chromium and chromedriver "
              "(Debian: apt-get install chromium chromium-driver, or scripts/setup --tests)")
        return SKIP
    try:
        return run(args, chromium, chromedriver)
    except Failure as failure:
        print(f"FAILED: {failure}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
