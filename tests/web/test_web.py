#!/usr/bin/python3
"""The browser edition in headless Chromium, against the desktop build (docs/web.md).

Serves SITE (scripts/web.sh's build-web/site) on a local port, opens it in Debian's Chromium
through chromedriver (python3-selenium), and checks what a class would do with it:
  - the page's first frame comes within the limit (--first-frame-limit seconds);
  - its state, read through window.pelab (the page's JavaScript hook), equals the desktop's
    `pelab readouts` for the same scene: the default one and every scene in assets/scenes/,
    each opened as a link (#scene= + base64url of the file). Integers, strings and booleans
    exactly, other numbers within 1e-9 relative (the browser's libm differs in the last bits;
    an absolute floor of 1e-12 for values that are zero on one side), except the fields that
    amplify those last bits, held as the desktop's goldens hold them (LOOSE);
  - the link the page writes for a scene opens the same state in a new page;
  - a malformed link shows a message and the default scene;
  - keys: the arrows move pos A and the pair, F1 opens the key list, a lesson dropped on the
    page starts, and PageDown / PageUp move between its steps;
  - File → Open shows the page's own files (a shipped lesson opens by its path) and From your
    computer… opens the browser's picker, answered through the DevTools protocol; the file
    chosen opens, and Open recent still has it after a reload;
  - Ctrl+S saves the scene as a download that reads back as the same scene; File → Export as
    PNG (clicked with the mouse) downloads a 1024×768 picture that the desktop opens as its
    scene;
  - the settings (text size) outlive a reload, through the browser's local storage;
  - the Train panel trains in slices between frames, from its own controls clicked with the
    mouse (as tests/e2e/test_train.sh does on the desktop), and the page keeps drawing;
  - the one-file page (--single FILE, scripts/web.sh --single-file) opens from file://, a link
    included;
  - the GPU heatmaps (WebGL 2 shaders) draw the desktop's picture: the PE matrix and the
    similarity map presented at 1024×768 differ from `pelab screenshot` of the same scene in
    under 2 % of the pixels (by more than 8 % of full scale: SwiftShader and Mesa round
    differently at edges; a shader that fails differs in most of the plot);
  - a browser without WebGL 2 shows a plain message, not a blank page.
Usage: test_web.py SITE PELAB [--first-frame-limit S] [--timings FILE] [--single FILE]
Exits 0 when every check passes; prints one line per check."""
import argparse
import base64
import functools
import http.server
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
failures = []
# The candidates' shift residual is an ill-conditioned least-squares fit: libm's last bits move it
# by ~1e-8 relative, between two desktops as between the desktop and the browser (see
# tests/golden/check_readouts.py, which holds it to 1e-6 for the same reason; the panel shows 4
# digits of it).
# The precision panel's float32 errors: the float32 recipe rounds each step's double result to
# float32, and where glibc's (the desktop) and musl's (the page) double sin, cos or exp differ in
# the last bit next to a float32 rounding boundary, the float32 result moves by one ulp. An
# error readout is the largest over the dimensions and
# can be set by a small value, whose ulp is small too (7e-12 at 1e-4): one such ulp moved a
# readout of 2.9e-8 by 2.4e-4 of itself (2.9380e-08 against 2.9373e-08). 1e-3 of the value
# holds the three digits the panel shows and would catch any wrong error formula.
# The Your model panel's component wavelengths are where a periodogram peaks: at a maximum the
# curve is flat, so a last-bit difference of sin or cos moves the peak found by ~√ulp (1.5e-8
# relative seen); 1e-6 keeps the 4 digits shown.
LOOSE = {"shift_residual": 1e-6, "float32_code": 1e-3, "float32_angle_double_sin": 1e-3,
         "wavelengths": 1e-6}


def check(name, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok else ": " + detail), flush=True)
    if not ok:
        failures.append(name)


def serve(folder):
    """A static web server on a free local port, in a thread; returns its base address."""
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d/" % server.server_address[1]


# Every path the page asked the server for (a favicon.ico among them would be a 404).
requested = []


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        requested.append(self.path)
        super().do_GET()

    def end_headers(self):
        # A cross-origin isolated page: Chromium then times performance.now() to 5 µs instead of
        # 100 µs, fine enough for the frame times web_report.py compares (most are under 2 ms).
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def browser(webgl=True):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--window-size=1024,768",
                     "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                     "--ignore-gpu-blocklist", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    if not webgl:
        options.add_argument("--disable-3d-apis")
    # The DevTools events: the file picker's opening (see pick_file).
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    viewport(driver, 1024, 768)
    return driver


def viewport(driver, width, height, pixel_ratio=1):
    """The page's own size in CSS pixels (a headless window's size includes its frame), on a
    screen of pixel_ratio device pixels per CSS pixel (2: a HiDPI screen)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": pixel_ratio, "mobile": False})


def open_page(driver, address, timeout=30):
    """Loads the page and waits for its first frame; returns the seconds from navigation."""
    driver.get("about:blank")
    driver.get(address)
    deadline = time.time() + timeout
    while time.time() < deadline:
        if driver.execute_script("return !!(window.pelab && window.pelab.ready())"):
            # Frames run on the browser's animation clock: wait for a few to have drawn.
            time.sleep(0.3)
            return driver.execute_script("return window.pelab.firstFrame() / 1000")
        time.sleep(0.02)
    raise RuntimeError("the page did not start within %d s: %s" % (timeout, driver.execute_script(
        "return document.getElementById('status').textContent")))


def state(driver):
    return driver.execute_script("return window.pelab.state()")


def page(driver):
    return driver.execute_script("return window.pelab.page()")


def desktop_readouts(pelab, scene=None):
    command = [pelab, "readouts"] + (["--scene", scene] if scene else [])
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def differences(a, b, path="", out=None, rel_tol=1e-9):
    """Where two JSON values differ, as "path: a vs b" lines (at most 10)."""
    out = [] if out is None else out
    if len(out) >= 10:
        return out
    number = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        if a is not b:
            out.append("%s: %r vs %r" % (path, a, b))
    elif isinstance(a, number) and isinstance(b, number):
        if isinstance(a, int) and isinstance(b, int):
            if a != b:
                out.append("%s: %r vs %r" % (path, a, b))
        elif not (math.isclose(a, b, rel_tol=rel_tol, abs_tol=1e-12)):
            out.append("%s: %r vs %r" % (path, a, b))
    elif isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                out.append("%s.%s: only on the %s" % (path, key, "desktop" if key in a else
                                                          "page"))
            else:
                differences(a[key], b[key], path + "." + key, out, LOOSE.get(key, rel_tol))
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: %d items vs %d" % (path, len(a), len(b)))
        else:
            for k, (x, y) in enumerate(zip(a, b)):
                differences(x, y, "%s[%d]" % (path, k), out, rel_tol)
    elif a != b:
        out.append("%s: %r vs %r" % (path, a, b))
    return out


def link_of(text):
    return "#scene=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()
    time.sleep(0.25)


def chord(driver, modifier, key):
    """modifier+key, the key held for 0.15 s: Dear ImGui 1.86 reads a key's state once a frame,
    so a press and release within one of a loaded machine's slow frames never arrives (Ctrl+A
    was missed so, and a sentence typed after it was appended to the old one)."""
    ActionChains(driver).key_down(modifier).key_down(key).pause(0.15).key_up(key).key_up(
        modifier).perform()
    time.sleep(0.25)


def widget_rect(driver, name):
    """The rectangle the page reports for the widget under name (a page opened with ?rects), in
    the canvas's pixels, and the fraction of the widget it is: [x0, y0, x1, y1, visible];
    waits for it to be drawn."""
    deadline = time.time() + 10
    while True:
        rects = page(driver).get("widget_rects", {})
        if name in rects or time.time() > deadline:
            break
        time.sleep(0.1)
    if name not in rects:
        raise RuntimeError("widget %s never reported its rectangle" % name)
    return rects[name]


def click(driver, name, fx=0.5, fy=0.5):
    """A mouse click on the widget the page reports under name (a page opened with ?rects)."""
    # The canvas's pixels are the screen's: devicePixelRatio of them to a CSS pixel.
    ratio = driver.execute_script("return window.devicePixelRatio")
    x0, y0, x1, y1, _visible = widget_rect(driver, name)
    x0, y0, x1, y1 = x0 / ratio, y0 / ratio, x1 / ratio, y1 / ratio
    x, y = x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy
    canvas = driver.find_element("id", "canvas")
    size = canvas.size
    # Selenium's offsets are from the element's centre.
    ActionChains(driver).move_to_element_with_offset(
        canvas, int(x - size["width"] / 2), int(y - size["height"] / 2)).pause(0.1).click_and_hold(
        ).pause(0.1).release().perform()
    time.sleep(0.25)


def type_text(driver, text):
    """Replaces the focused field's text, as e2e_type does: Ctrl+A, the text, Enter. Enter is
    held for 0.2 s, as a hand holds it: Dear ImGui 1.86 reads a key's state once a frame, so a
    press and release within one of SwiftShader's slow frames (40 ms and more here) never reach
    the text field."""
    chord(driver, Keys.CONTROL, "a")
    ActionChains(driver).send_keys(text).perform()
    time.sleep(0.2)
    ActionChains(driver).key_down(Keys.ENTER).pause(0.2).key_up(Keys.ENTER).perform()
    time.sleep(0.25)


# Why a picker could not be answered, for the check that reports it.
PICKER_ERRORS = []


def pick_file(driver, path):
    return pick_files(driver, [path])


def pick_files(driver, paths):
    """Answers the browser's file picker, which the page has just opened, with path: what a
    person choosing the file does, through the DevTools protocol (headless Chromium shows no
    picker; the page's input element gets the file and its change event). The newest picker
    is answered: on a loaded machine an earlier event may name an input the page has since
    replaced (seen once: "No node found for given backend id"). Up to 30 s: beside the release
    tests on two cores the picker of a second checkpoint once took longer than the 4 s allowed
    before ("picker answered: False")."""
    opened = []
    for _ in range(300):
        # The log hands each entry out once: the pickers seen are kept, so one that could not
        # be answered yet is tried again on the next round.
        opened += [m for m in (json.loads(entry["message"])["message"]
                               for entry in driver.get_log("performance"))
                   if m["method"] == "Page.fileChooserOpened"]
        for message in reversed(opened):
            try:
                driver.execute_cdp_cmd("DOM.setFileInputFiles", {
                    "files": paths, "backendNodeId": message["params"]["backendNodeId"]})
            except WebDriverException as error:
                PICKER_ERRORS.append(str(error).splitlines()[0])
                continue
            time.sleep(1)
            return True
        time.sleep(0.1)
    return False


def drop_file(driver, name, text):
    """Drops a file on the canvas as a person dragging it from their folder would."""
    driver.execute_script("""
        const transfer = new DataTransfer();
        transfer.items.add(new File([arguments[1]], arguments[0], {type: 'application/json'}));
        Module.canvas.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer,
                                                           bubbles: true, cancelable: true}));
    """, name, text)
    time.sleep(0.6)


def desktop_train_check(train):
    claims = train.get("claims", {})
    return claims.get("finished") == 2

def storage(driver, key):
    return driver.execute_script("return window.localStorage.getItem(arguments[0])", key)


def set_storage(driver, base, values):
    """Replaces the site's storage from a page of the same site that is not PE Lab: a PE Lab
    page would write its own settings over these as it goes away."""
    driver.get(base + "not-pe-lab.txt")
    driver.execute_script("""window.localStorage.clear();
        for (const [key, value] of Object.entries(arguments[0]))
            window.localStorage.setItem(key, value);""", values)


def settings_text(recent=(), theme="dark", scale="1.0000"):
    return ("[PELab][View]\nTheme=%s\nFontScale=%s\nMode=advanced\n" % (theme, scale) +
            "".join("Recent=%s\n" % path for path in recent) + "\n")


def check_settings_saved_on_change(driver, base):
    """Issue 41, item 3: a theme or text size chosen is in storage within seconds, not only when
    the page closes (a crashed or discarded tab never closes)."""
    set_storage(driver, base, {})
    open_page(driver, base + "index.html?rects")
    time.sleep(1.5)
    click(driver, "menu.view")
    click(driver, "menu.theme")
    click(driver, "theme.light")
    chord(driver, Keys.CONTROL, "=")
    chord(driver, Keys.CONTROL, "=")
    larger = "FontScale=%.4f" % state(driver)["font_scale"]
    deadline = time.time() + 5
    saved = ""
    while time.time() < deadline:
        saved = storage(driver, "pelab.settings") or ""
        if "Theme=light" in saved and larger in saved:
            break
        time.sleep(0.2)
    check("a theme and a text size chosen are saved within 5 s, the page still open",
          "Theme=light" in saved and larger in saved and larger != "FontScale=1.0000",
          repr(saved[saved.find("[PELab]"):][:200]) + " theme on screen: %r, text ×%r" % (
              state(driver)["theme"], state(driver)["font_scale"]))


def check_recent_files(driver, base):
    """Issue 41, item 4, and the damaged settings of item 8: a file served with the page is read
    from the server, never from a stored copy; a damaged copy of a file the user brought is
    dropped with a message; damaged settings are reset with a message; a recent entry of
    nothing ("Recent=/") is forgotten."""
    served_path = "/pelab/lessons/why-positions.json"
    with open(os.path.join(ROOT, "assets", "lessons", "why-positions.json")) as f:
        shipped = f.read()
    # An older page's stored copy of the shipped lesson, damaged, and a user's damaged copy.
    # The same lesson spelt another way, with a copy of its own; a copy no entry names.
    odd_path = "/pelab//lessons/./why-positions.json"
    set_storage(driver, base, {
        "pelab.settings": settings_text([served_path, "/uploads/mine.json", "/", odd_path]),
        "pelab.recent:" + served_path: '{"steps": [',
        "pelab.recent:" + odd_path: '{"title": "not the teacher\'s", "steps": []}',
        "pelab.recent:/uploads/mine.json": "{not json",
        "pelab.recent:/uploads/orphan.json": '{"d_model": 64}',
    })
    open_page(driver, base + "index.html")
    read = driver.execute_script(
        "try { return Module.FS.readFile(arguments[0], {encoding: 'utf8'}); }"
        " catch (e) { return null; }", served_path)
    check("a stored copy of a served lesson does not replace the server's", read == shipped,
          repr((read or "")[:80]))
    recent = page(driver)["recent_files"]
    notice = page(driver)["notice"]
    check("a damaged copy of a user's file: a message naming it",
          "mine.json" in notice and "damaged" in notice, notice)
    check("… dropped from Open recent and from storage", "/uploads/mine.json" not in recent and
          storage(driver, "pelab.recent:/uploads/mine.json") is None, repr(recent))
    check("a recent entry of nothing (Recent=/) is forgotten", "/" not in recent and
          served_path in recent, repr(recent))
    check("the served lesson spelt another way is the served one, listed once",
          recent.count(served_path) == 1 and odd_path not in recent and
          storage(driver, "pelab.recent:" + odd_path) is None, repr(recent))
    check("a stored copy no recent entry names is dropped",
          storage(driver, "pelab.recent:/uploads/orphan.json") is None, "still stored")
    # Later frames keep copies of the user's recent files: none of a served one.
    time.sleep(1.5)
    check("no copy of a served file is stored again",
          storage(driver, "pelab.recent:" + served_path) is None, "a copy was stored")
    # Damaged settings: reset, with a message, and written afresh.
    set_storage(driver, base, {"pelab.settings": "\u0001garbage that is not settings"})
    open_page(driver, base + "index.html")
    notice = page(driver)["notice"]
    check("damaged settings: a message says they were reset",
          "settings" in notice and "damaged" in notice, notice)
    time.sleep(1.5)
    check("damaged settings: replaced by good ones",
          (storage(driver, "pelab.settings") or "").startswith("["),
          repr(storage(driver, "pelab.settings")))
    driver.execute_script("window.localStorage.clear()")


def check_links_keep_viewer_settings(driver, base, address):
    """Issue 41, item 5, and the link messages of item 8."""
    set_storage(driver, base, {})
    open_page(driver, address + link_of(
        '{"theme": "light", "font_scale": 2, "mode": "beginner", "d_model": 48}'))
    got = state(driver)
    check("a link with a theme, a text size and a mode changes none of them",
          got["theme"] == "dark" and got["font_scale"] == 1 and got["mode"] == "advanced" and
          got["d_model"] == 48, json.dumps({k: got[k] for k in
                                            ("theme", "font_scale", "mode", "d_model")}))
    time.sleep(1.5)
    open_page(driver, address)
    got = state(driver)
    check("… nor on the next visit", got["theme"] == "dark" and got["font_scale"] == 1 and
          got["mode"] == "advanced", json.dumps({k: got[k] for k in ("theme", "font_scale",
                                                                      "mode")}))
    # A damaged link pasted mid-session: the scene on screen stays, and the message says so;
    # the address goes back to the scene's own link.
    good = link_of('{"d_model": 64, "pos_a": 7}')
    open_page(driver, address + good)
    own = driver.execute_script("return window.location.hash")
    driver.execute_script("window.location.hash = '#scene=%%%not-base64'")
    time.sleep(1)
    got = state(driver)
    notice = page(driver)["notice"]
    check("a damaged link pasted mid-session: the message says the scene stays",
          "damaged" in notice and "scene on screen stays" in notice, notice)
    check("… the scene stays", got["d_model"] == 64 and got["pos_a"] == 7,
          "d_model %r, pos_a %r" % (got["d_model"], got["pos_a"]))
    check("… and the address shows the scene's link again",
          driver.execute_script("return window.location.hash") == own,
          driver.execute_script("return window.location.hash")[:80])
    # A link cut short mid-way (its base64 still whole): "cut short", not a parser's message.
    with open(os.path.join(ROOT, "assets", "scenes", sorted(os.listdir(
            os.path.join(ROOT, "assets", "scenes")))[0])) as f:
        long_link = link_of(f.read())
    cut = long_link[:len(long_link) // 2]
    while (len(cut) - len("#scene=")) % 4 == 1:
        cut = cut[:-1]
    open_page(driver, address + cut)
    notice = page(driver)["notice"]
    check("a link cut short says so in words", "cut short" in notice and "line" not in notice,
          notice)


def paste_into_sentence(driver, arrived):
    """Ctrl+A, Ctrl+V and Enter in the order demo's sentence A, once more should the text not
    have arrived (a loaded machine draws the field a frame late); returns what it holds."""
    for _ in range(2):
        click(driver, "order.sentence_a")
        time.sleep(0.5)
        chord(driver, Keys.CONTROL, "a")
        chord(driver, Keys.CONTROL, "v")
        ActionChains(driver).key_down(Keys.ENTER).pause(0.2).key_up(Keys.ENTER).perform()
        time.sleep(0.5)
        if arrived(state(driver).get("sentence_a", "")):
            break
    return state(driver).get("sentence_a", "")


def check_clipboard(driver, base):
    """Issue 41, item 6: Copy as CSV puts the table on the browser's clipboard and says so only
    then; Ctrl+V pastes the clipboard's text into a field."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": base.rstrip("/"), "permissions": ["clipboardReadWrite",
                                                     "clipboardSanitizedWrite"]})
    open_page(driver, base + "index.html?rects" + link_of(
        '{"presented_panel": "calculator", "d_model": 16, "pos_a": 3}'))
    click(driver, "calculator.copy_csv")
    time.sleep(0.5)
    copied = driver.execute_async_script(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, "
        "(e) => done('refused: ' + e));")
    lines = copied.strip().split("\n")
    check("Copy as CSV puts the shown rows on the browser's clipboard",
          len(lines) == 9 and lines[0].startswith("dim"), repr(copied[:200]))
    # The clipboard's text pasted into the order demo's sentence.
    driver.execute_async_script(
        "navigator.clipboard.writeText('pasted from the clipboard').then(arguments[0])")
    open_page(driver, base + "index.html?rects" + link_of('{"presented_panel": "order"}'))
    paste_into_sentence(driver, lambda text: text == "pasted from the clipboard")
    check("Ctrl+V pastes the clipboard into a field",
          state(driver).get("sentence_a") == "pasted from the clipboard",
          repr(state(driver).get("sentence_a")))
    # Past the sentence's 1 024 bytes, a paste keeps what fits (the scene, and its link, stay
    # valid: a longer sentence is refused by the scene reader).
    driver.execute_async_script(
        "navigator.clipboard.writeText('wörd '.repeat(300)).then(arguments[0])")
    paste_into_sentence(driver, lambda text: text.startswith("wörd"))
    pasted = state(driver).get("sentence_a", "")
    check("a paste past 1 024 bytes keeps what fits, whole characters",
          pasted.startswith("wörd wörd") and len(pasted.encode()) <= 1024 and
          len(pasted.encode()) > 1000, "%d bytes" % len(pasted.encode()))
    time.sleep(1)
    linked = base64.urlsafe_b64decode(driver.execute_script("return window.pelab.link()")[7:] +
                                      "===").decode()
    check("… and the link holds it", json.loads(linked).get("sentence_a") == pasted,
          linked[:120])
    # A browser whose Clipboard API throws: the older way copies, the page goes on.
    open_page(driver, base + "index.html?rects" + link_of(
        '{"presented_panel": "calculator", "d_model": 16, "pos_a": 3}'))
    driver.execute_script(
        "navigator.clipboard.writeText = () => { throw new Error('thrown'); }")
    click(driver, "calculator.copy_csv")
    press(driver, Keys.ARROW_RIGHT)
    check("a Clipboard API that throws does not stop the page", state(driver)["pos_a"] == 4,
          "pos_a %r" % state(driver)["pos_a"])


def check_page_run_equals_desktop(pelab, train):
    """Issue 41, item 2: the page's run is the desktop's run of the same settings: the same
    tokens (the example's predictions), and losses and accuracies to float tolerance (the page
    rounds each product and sum where the desktop fuses them)."""
    settings = train["settings"]
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "run.json")
        command = [pelab, "train", "--task", settings["task"], "--pe",
                   ",".join(settings["variants"]), "--layers", str(settings["layers"]),
                   "--d-model", str(settings["d_model"]), "--heads", str(settings["heads"]),
                   "--vocab", str(settings["vocab"]), "--k", str(settings["k"]),
                   "--train-len", str(settings["train_len"]),
                   "--min-train-len", str(settings["min_train_len"]),
                   "--test-len", str(settings["test_len"]), "--steps", str(settings["steps"]),
                   "--batch", str(settings["batch"]), "--seed", str(settings["seed"]),
                   "--out", out] + (["--causal"] if settings["causal"] else [])
        subprocess.run(command, check=True, capture_output=True)
        with open(out) as f:
            desktop = json.load(f)
    for page_variant, desk_variant in zip(train["variants"], desktop["variants"]):
        name = page_variant["pe"]
        page_loss, desk_loss = page_variant["final_loss"], desk_variant["loss"][-1]
        check("page and desktop runs: %s's final loss agrees to 1e-4" % name,
              abs(page_loss - desk_loss) <= 1e-4 * abs(desk_loss),
              "%r against %r" % (page_loss, desk_loss))
        page_acc, desk_acc = page_variant["accuracy_by_length"], desk_variant["accuracy_by_length"]
        gap = max(abs(a - b) for a, b in zip(page_acc, desk_acc)) if page_acc else 1
        check("page and desktop runs: %s's accuracy per length agrees to 0.002" % name,
              len(page_acc) == len(desk_acc) and gap <= 0.002,
              "largest gap %.4f: %r against %r" % (gap, page_acc[:4], desk_acc[:4]))
        same = sum(a == b for a, b in zip(page_variant["example_prediction"],
                                          desk_variant["prediction"]))
        check("page and desktop runs: %s predicts the example's tokens alike" % name,
              same >= len(desk_variant["prediction"]) - 1,
              "%r against %r" % (page_variant["example_prediction"], desk_variant["prediction"]))


def check_hidpi(pelab, address):
    """Issue 41, item 7: at a device pixel ratio of 2 the page is drawn at the screen's
    resolution: a 1024×768 page gives 2048×1536 pixels, the same picture as the desktop's at
    that size with text ×2 (not a 1024×768 picture scaled up, whose text is soft)."""
    driver = browser()
    try:
        viewport(driver, 1024, 768, 2)
        scene = {"presented_panel": "waves", "pos_a": 9}
        open_page(driver, address + link_of(json.dumps(scene)))
        time.sleep(1)
        with tempfile.TemporaryDirectory() as folder:
            page_png, desk_png = (os.path.join(folder, n) for n in ("page.png", "desk.png"))
            driver.save_screenshot(page_png)
            scene_path = os.path.join(folder, "scene.json")
            with open(scene_path, "w") as f:
                json.dump(dict(scene, font_scale=2), f)
            subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 2560x1600x24", pelab,
                            "screenshot", "--scene", scene_path, "--size", "2048x1536",
                            "--theme", "dark", "--out", desk_png], check=True,
                           capture_output=True)
            size = subprocess.run(["identify", "-format", "%wx%h", page_png],
                                  capture_output=True, text=True).stdout
            check("at device pixel ratio 2 the page has 2048×1536 pixels", size == "2048x1536",
                  size)
            compared = subprocess.run(["compare", "-metric", "AE", "-fuzz", "8%", page_png,
                                       desk_png, "null:"], capture_output=True, text=True)
            try:
                share = float(compared.stderr.split()[0]) / (2048 * 1536)
            except (ValueError, IndexError):
                share = 1.0
            check("at device pixel ratio 2 the page draws the desktop's text ×2 picture "
                  "(crisp text)", share < 0.02, "%.1f %% of the pixels differ (%s)" % (
                      100 * share, compared.stderr.strip()[:120]))
    finally:
        driver.quit()


def check_loading_and_favicon(address):
    """Issue 41, item 8: the loading message in megabytes; no favicon.ico asked for (in a
    browser of its own: the server's plain 404 pages of the other checks have no icon, and the
    browser asks for one for them)."""
    driver = browser()
    try:
        del requested[:]
        open_page(driver, address)
        time.sleep(1)
        loading_and_favicon(driver)
    finally:
        driver.quit()


def loading_and_favicon(driver):
    text = driver.execute_script(
        "Module.setStatus('Downloading data... (417000/1772252)');"
        "return document.getElementById('status').textContent")
    driver.execute_script("document.getElementById('message').style.display = 'none'")
    check("the loading message counts megabytes", text == "Loading… 0.4 of 1.8 MB", repr(text))
    check("the page asks for no favicon.ico",
          not any(path.startswith("/favicon") for path in requested),
          repr([p for p in requested if "favicon" in p]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site")
    parser.add_argument("pelab")
    parser.add_argument("--first-frame-limit", type=float, default=2.0)
    parser.add_argument("--timings")
    parser.add_argument("--single")
    args = parser.parse_args()
    base = serve(os.path.abspath(args.site))
    address = base + "index.html"
    driver = browser()
    try:
        # The first load fills the browser's cache; the second is what a class sees on the
        # second visit, the first what it sees on the first. Both are reported.
        cold = open_page(driver, address)
        check("a first visit opens on the Start here map", page(driver)["presented_panel"] ==
              "start", json.dumps(page(driver)))
        warm = open_page(driver, address)
        print("first frame: %.2f s (first visit), %.2f s (again)" % (cold, warm))
        check("first frame within %.1f s of page load" % args.first_frame_limit,
              cold <= args.first_frame_limit, "%.2f s" % cold)
        if args.timings:
            with open(args.timings, "w") as f:
                json.dump({"first_frame_cold_s": cold, "first_frame_warm_s": warm}, f)

        # The default scene, then each shipped scene as a link.
        default_state = state(driver)
        check("default scene: readouts equal the desktop's",
              not differences(desktop_readouts(args.pelab), default_state),
              "; ".join(differences(desktop_readouts(args.pelab), default_state)))
        scenes = sorted(os.listdir(os.path.join(ROOT, "assets", "scenes")))
        for name in scenes:
            path = os.path.join(ROOT, "assets", "scenes", name)
            with open(path) as f:
                text = f.read()
            open_page(driver, address + link_of(text))
            got = state(driver)
            diff = differences(desktop_readouts(args.pelab, path), got)
            check("scene %s as a link: readouts equal the desktop's" % name, not diff,
                  "; ".join(diff))
            check("scene %s as a link: no message" % name, page(driver)["notice"] == "",
                  page(driver)["notice"])
            # The page's own link for it opens the same state in a fresh page.
            link = driver.execute_script("return window.pelab.link()")
            check("scene %s: the page's link is base64url of at most 8 KB" % name,
                  link.startswith("#scene=") and len(link) - 7 <= 8192 and
                  all(c.isalnum() or c in "-_" for c in link[7:]), link[:80])
            check("scene %s: the address shows the link" % name,
                  driver.execute_script("return window.location.hash") == link,
                  driver.execute_script("return window.location.hash")[:80])
            open_page(driver, address + link)
            diff = differences(got, state(driver))
            check("scene %s: its link reopens the same state" % name, not diff, "; ".join(diff))

        # Malformed links: a message, and the default scene.
        for fragment, words in [("#scene=%%%not-base64", "damaged"),
                                (link_of('{"d_model": "wide"}'), "not applied"),
                                (link_of("{not json"), "damaged")]:
            open_page(driver, address + fragment)
            notice = page(driver)["notice"]
            check("malformed link %s: a message" % fragment[:24], words in notice, notice)
            diff = differences(default_state, state(driver))
            check("malformed link %s: the default scene" % fragment[:24], not diff,
                  "; ".join(diff))

        # Keys, as a student presses them.
        open_page(driver, address)
        before = state(driver)
        press(driver, Keys.ARROW_RIGHT)
        press(driver, Keys.ARROW_UP)
        after = state(driver)
        check("→ moves pos A one on", after["pos_a"] == before["pos_a"] + 1,
              "%r → %r" % (before["pos_a"], after["pos_a"]))
        check("↑ moves to the next pair", after["pair"] == before["pair"] + 1,
              "%r → %r" % (before["pair"], after["pair"]))
        press(driver, Keys.F1)
        check("F1 opens the list of keys", page(driver)["keyboard_help"] is True,
              json.dumps(page(driver)))
        press(driver, Keys.ESCAPE)
        check("Esc closes it", page(driver)["keyboard_help"] is False, json.dumps(page(driver)))

        # A lesson dropped on the page starts; PageDown and PageUp move between its steps.
        with open(os.path.join(ROOT, "assets", "lessons", "why-positions.json")) as f:
            drop_file(driver, "why-positions.json", f.read())
        lesson = state(driver)["readouts"].get("lesson")
        check("a dropped lesson starts at its first step", lesson is not None and
              lesson.get("step") == 1, json.dumps(lesson)[:200])
        press(driver, Keys.PAGE_DOWN)
        time.sleep(0.6)  # the step's glide
        lesson = state(driver)["readouts"].get("lesson", {})
        check("PageDown: the next step", lesson.get("step") == 2, json.dumps(lesson)[:200])
        press(driver, Keys.PAGE_UP)
        lesson = state(driver)["readouts"].get("lesson", {})
        check("PageUp: the step before", lesson.get("step") == 1, json.dumps(lesson)[:200])

        # A bad file dropped: the desktop's message, nothing changed.
        before = state(driver)
        drop_file(driver, "broken.json", '{"format": "pelab-scene", "d_model": "wide"}')
        notice = page(driver)["notice"]
        check("a bad file dropped: a message naming the field", "d_model" in notice, notice)
        diff = differences(before, state(driver))
        check("a bad file dropped: nothing changed", not diff, "; ".join(diff))

        # Ctrl+S: the scene as a download, which reads back as the same scene.
        open_page(driver, address + link_of('{"d_model": 64, "pos_a": 7}'))
        driver.execute_script("""window.downloads = [];
            Module.onPelabDownload = (name, bytes) =>
                window.downloads.push([name, new TextDecoder().decode(bytes)]);""")
        chord(driver, Keys.CONTROL, "s")
        time.sleep(0.5)
        downloads = driver.execute_script("return window.downloads")
        check("Ctrl+S gives one download", len(downloads) == 1,
              json.dumps(downloads)[:200] + " " + json.dumps(page(driver)))
        if downloads:
            saved = json.loads(downloads[0][1])
            check("the download is the scene", saved.get("d_model") == 64 and
                  saved.get("pos_a") == 7, downloads[0][1][:200])

        # File → Export as PNG, through the menu, at 1024×768: a download the desktop reads.
        open_page(driver, base + "index.html?rects" +
                  link_of('{"presented_panel": "waves", "pos_a": 9}'))
        driver.execute_script("""window.downloads = [];
            Module.onPelabDownload = (name, bytes) => {
                let text = ''; for (const b of bytes) text += String.fromCharCode(b);
                window.downloads.push([name, btoa(text)]); };""")
        click(driver, "menu.file")
        click(driver, "file.export_png")
        click(driver, "export.size1")
        click(driver, "export.choose")
        time.sleep(1.5)
        downloads = driver.execute_script("return window.downloads")
        check("Export as PNG gives one download", len(downloads) == 1,
              json.dumps(page(driver))[:300])
        if downloads:
            with tempfile.NamedTemporaryFile(suffix=".png") as png:
                png.write(base64.b64decode(downloads[0][1]))
                png.flush()
                header = open(png.name, "rb").read(24)
                size = (int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big"))
                check("the PNG is 1024×768", header[:8] == b"\x89PNG\r\n\x1a\n" and
                      size == (1024, 768), repr(header[:8]) + " " + str(size))
                reopened = desktop_readouts(args.pelab, png.name)
                check("the desktop opens the PNG as its scene",
                      reopened["presented_panel"] == "waves" and reopened["pos_a"] == 9,
                      json.dumps({k: reopened.get(k) for k in ("presented_panel", "pos_a")}))

        # File → Open: PE Lab's own dialog over the page's files (a shipped lesson opens by
        # its path; the dialog starts in the last file's folder, so the path is absolute), and
        # From your computer… for the browser's picker.
        open_page(driver, base + "index.html?rects")
        chord(driver, Keys.CONTROL, "o")
        # The dialog opens with the keyboard in its path field (a loaded machine draws slowly:
        # wait for the field to be drawn).
        widget_rect(driver, "file.path_typing")
        time.sleep(0.5)
        type_text(driver, "/pelab/lessons/why-positions.json")
        deadline = time.time() + 5
        while not state(driver)["readouts"].get("lesson") and time.time() < deadline:
            time.sleep(0.2)
        lesson = state(driver)["readouts"].get("lesson") or {}
        check("File → Open lists the page's files: a shipped lesson opens",
              lesson.get("step") == 1 and "why-positions" in lesson.get("path", ""),
              json.dumps(lesson)[:200] + " " + page(driver)["notice"])
        driver.execute_cdp_cmd("Page.enable", {})
        driver.execute_cdp_cmd("Page.setInterceptFileChooserDialog", {"enabled": True})
        driver.get_log("performance")  # what came before
        with tempfile.TemporaryDirectory() as folder:
            chosen = os.path.join(folder, "from-my-laptop.json")
            with open(chosen, "w") as f:
                f.write('{"d_model": 96, "pos_a": 11}')
            chord(driver, Keys.CONTROL, "o")
            click(driver, "file.from_computer")
            check("From your computer… opens the browser's file picker",
                  pick_file(driver, chosen), "no Page.fileChooserOpened event")
        got = state(driver)
        check("the file chosen in the picker opens", got["d_model"] == 96 and got["pos_a"] == 11,
              "d_model %r, pos_a %r; %s" % (got["d_model"], got["pos_a"], page(driver)["notice"]))
        # A checkpoint chosen with its config.json (tests/models/make_fixtures.py's Llama-shaped
        # one: RoPE needs the config) opens in the Your model panel, read in the page.
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
        import make_fixtures
        with tempfile.TemporaryDirectory() as folder:
            make_fixtures.llama_like(folder, "llama", "llama", 4, 2, 16, {})
            make_fixtures.gpt2(folder)
            # A Llama-shaped GGUF file with Q8_0 weights, alone (tests/gguf's converter rules).
            subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gguf",
                                                         "make_arch_fixtures.py"),
                            os.path.join(folder, "gguf"), "llama"], check=True,
                           stdout=subprocess.DEVNULL)
            # A config.json alone first: everything without weights (format "config.json").
            for name, files, family, kind, form in [
                    ("llama", ["config.json"], "Llama", "RoPE", "config.json"),
                    ("llama", ["model.safetensors", "config.json"], "Llama", "RoPE",
                     "safetensors"),
                    ("gpt2", ["model.safetensors"], "GPT-2", "learned table", "safetensors"),
                    (os.path.join("gguf", "llama"), ["model-Q8_0.gguf"], "Llama", "RoPE",
                     "GGUF v3")]:
                chord(driver, Keys.CONTROL, "o")
                click(driver, "file.from_computer")
                picked = pick_files(driver, [os.path.join(folder, name, f) for f in files])
                model = {}
                # Up to 60 s: on a busy machine (CI beside the sanitizer tests) the read took
                # more than the 20 s once allowed.
                for _ in range(300):
                    model = state(driver)["readouts"].get("model") or {}
                    if (model.get("open") and model.get("family") == family and
                            model.get("format") == form):
                        break
                    time.sleep(0.2)
                check("a %s %s chosen in the browser's picker opens in the Your model panel" %
                      (family, "config.json alone" if form == "config.json" else "checkpoint"),
                      picked and model.get("family") == family and model.get("kind") == kind and
                      model.get("format") == form,
                      "picker answered: %s %s; " % (picked, PICKER_ERRORS[-3:]) +
                      json.dumps({k: model.get(k)
                                  for k in ("family", "kind", "format", "open_error")}) +
                      " " + page(driver)["notice"])
            # A GGUF file past the page's 1 GiB (sparse: nothing is read) is refused with its
            # size, and the model open stays open.
            big = os.path.join(folder, "big.gguf")
            with open(big, "wb") as f:
                f.truncate(1200 * 1024 * 1024)
            chord(driver, Keys.CONTROL, "o")
            click(driver, "file.from_computer")
            picked = pick_files(driver, [big])
            said = ""
            for _ in range(100):
                try:
                    alert = driver.switch_to.alert
                    said = alert.text
                    alert.accept()
                    break
                except WebDriverException:
                    time.sleep(0.1)
            model = state(driver)["readouts"].get("model") or {}
            check("a 1.17 GiB GGUF file is refused in the page with its size, the model kept",
                  picked and "at most 1 GiB" in said and "1.17 GiB" in said and
                  model.get("format") == "GGUF v3", "%r %r" % (said, model.get("format")))
        # Open recent keeps the chosen file's bytes: after a reload it is there again.
        open_page(driver, base + "index.html")
        recent = page(driver)["recent_files"]
        kept = driver.execute_script(
            "try { return Module.FS.readFile(arguments[0], {encoding: 'utf8'}); }"
            " catch (e) { return null; }", "/uploads/from-my-laptop.json")
        check("Open recent still has the chosen file after a reload",
              "/uploads/from-my-laptop.json" in recent and kept == '{"d_model": 96, "pos_a": 11}',
              "%r, %r" % (recent, kept))

        # The settings outlive a reload (local storage).
        open_page(driver, address)
        scale = state(driver)["font_scale"]
        chord(driver, Keys.CONTROL, "=")
        time.sleep(0.5)
        larger = state(driver)["font_scale"]
        open_page(driver, address)
        check("Ctrl+= makes the text larger", larger > scale, "%r → %r" % (scale, larger))
        check("the text size outlives a reload", state(driver)["font_scale"] == larger,
              "%r, then %r" % (larger, state(driver)["font_scale"]))
        driver.execute_script("window.localStorage.clear()")
        check_settings_saved_on_change(driver, base)
        check_recent_files(driver, base)
        check_links_keep_viewer_settings(driver, base, address)
        check_clipboard(driver, base)

        # A sentence with spaces, punctuation and a letter past ASCII, typed into a text field,
        # arrives whole (the page once kept the space bar from every field).
        open_page(driver, base + "index.html?rects" + link_of('{"presented_panel": "order"}'))
        typed = "the café sat, then left!"
        # The field becomes active a frame after the click; on a loaded machine Ctrl+A once
        # came before it and the sentence was appended to the old one, so wait for the field
        # and, should the old text still be there, select and type once more.
        for _ in range(2):
            click(driver, "order.sentence_a")
            time.sleep(0.5)
            type_text(driver, typed)
            got = state(driver).get("sentence_a")
            if got == typed:
                break
        check("a sentence typed with spaces, punctuation and é arrives whole", got == typed,
              repr(got))

        # Training between frames: 20 steps of two variants, from the panel's own controls.
        open_page(driver, base + "index.html?rects" +
                  link_of('{"presented_panel": "train", "train_view": "curves"}'))
        click(driver, "train.steps")
        type_text(driver, "20")
        for variant in ["learned", "rope", "alibi", "t5"]:
            click(driver, "train.variant_" + variant)
        # Every frame's interval, measured in the page while it trains.
        driver.execute_script("""window.frameGaps = [];
            let last = performance.now();
            const tick = (now) => { window.frameGaps.push(now - last); last = now;
                                    if (window.frameGaps.length < 100000)
                                        requestAnimationFrame(tick); };
            requestAnimationFrame(tick);""")
        click(driver, "train.start")
        deadline = time.time() + 60
        while time.time() < deadline:
            time.sleep(0.2)
            if not state(driver)["readouts"]["train"]["training"]["running"]:
                break
        frames = driver.execute_script("return window.frameGaps")
        print("frames while training: %d, median %.0f ms, slowest %.0f ms" % (
            len(frames), sorted(frames)[len(frames) // 2], max(frames)))
        train = state(driver)["readouts"]["train"]
        check("the browser trains the panel's own run to its end",
              train["source"] == "your run" and not train["training"]["running"],
              json.dumps(train.get("training")) + " " + str(train.get("source")))
        check("the two variants left ticked trained the 20 steps typed",
              [v["pe"] for v in train["variants"]] == ["none", "sinusoidal"] and
              all(v["steps_done"] == 20 for v in train["variants"]),
              json.dumps([(v["pe"], v["steps_done"]) for v in train["variants"]]))
        # A training step takes ~0.1 s in the page here (docs/web.md) and cannot be cut: the
        # page draws a frame between steps. What must hold is that the page never stops drawing
        # for the run: the 95th-percentile frame under 0.8 s, and no single frame longer than a
        # third of the whole run (a page that trained in one go would show one frame as long as
        # the run). A single slow frame of a loaded machine (0.82 s once, in a clean-clone run)
        # is noise, not a stall, so it is not judged against a fixed wall-clock limit.
        ordered = sorted(frames)
        p95 = ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0
        slow = ordered[-1] if ordered else 0
        total = sum(frames)
        check("the page kept drawing while it trained (a frame between steps, 95% of them "
              "under 0.8 s, none over a third of the run)",
              len(frames) >= 20 and p95 < 800 and slow < total / 3,
              "%d frames over %.1f s, 95th percentile %.0f ms, the slowest %.0f ms" % (
                  len(frames), total / 1000, p95, slow))
        verdict = desktop_train_check(train)
        check("the verdict reads both variants", verdict, json.dumps(train.get("claims"))[:200])
        check_page_run_equals_desktop(args.pelab, train)
    finally:
        driver.quit()

    # The GPU pictures: the page's screenshot against the desktop's, same scene and size.
    driver = browser()
    try:
        with tempfile.TemporaryDirectory() as folder:
            for name, scene in [("PE matrix", {"presented_panel": "heatmap"}),
                                ("similarity", {"presented_panel": "heatmap",
                                                "heatmap_similarity": True})]:
                scene_path = os.path.join(folder, "scene.json")
                with open(scene_path, "w") as f:
                    json.dump(scene, f)
                open_page(driver, address + link_of(json.dumps(scene)))
                time.sleep(1)
                page_png, desk_png = (os.path.join(folder, n) for n in ("page.png", "desk.png"))
                driver.save_screenshot(page_png)
                subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", args.pelab,
                                "screenshot", "--scene", scene_path, "--size", "1024x768",
                                "--theme", "dark", "--out", desk_png], check=True,
                               capture_output=True)
                compared = subprocess.run(["compare", "-metric", "AE", "-fuzz", "8%", page_png,
                                           desk_png, "null:"], capture_output=True, text=True)
                share = float(compared.stderr.split()[0]) / (1024 * 768)
                check("the %s heatmap draws the desktop's picture" % name, share < 0.02,
                      "%.1f %% of the pixels differ" % (100 * share))
    finally:
        driver.quit()

    if args.single:
        # The page for a USB stick: from file://, where a page cannot fetch anything.
        driver = browser()
        try:
            open_page(driver, "file://" + os.path.abspath(args.single) +
                      link_of('{"d_model": 64, "pos_a": 7}'))
            got = state(driver)
            check("the one-file page opens from file:// with its link",
                  got["d_model"] == 64 and got["pos_a"] == 7 and page(driver)["notice"] == "",
                  json.dumps(page(driver)))
        finally:
            driver.quit()

    check_hidpi(args.pelab, address)
    check_loading_and_favicon(address)

    # A browser without WebGL 2: a plain message.
    driver = browser(webgl=False)
    try:
        driver.get(address)
        time.sleep(2)
        text = driver.execute_script("return document.getElementById('message').innerText")
        visible = driver.execute_script(
            "return getComputedStyle(document.getElementById('message')).display")
        check("no WebGL 2: a message says so", "WebGL 2" in text and visible != "none", text)
    finally:
        driver.quit()
    print("%d checks failed" % len(failures) if failures else "every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
