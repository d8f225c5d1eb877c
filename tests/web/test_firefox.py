#!/usr/bin/python3
"""The browser edition in Firefox: a smoke test (docs/web.md).

Debian packages no geckodriver, so the test speaks WebDriver BiDi, the remote protocol built into
Firefox (--remote-debugging-port), over a WebSocket (python3-websocket). Firefox runs with a
window on its own X server (xvfb-run), as a student's would, with a fresh profile. Checks:
  - the page starts (its first frame) and a link opens its scene (the order demo);
  - the panel draws: the widgets report their rectangles and the screenshot is a picture, not
    one colour;
  - a sentence with spaces, punctuation and a letter past ASCII, typed with real key events into
    the order demo's sentence, arrives whole.
Usage: test_firefox.py SITE     (run under xvfb-run; exits 0 when every check passes)"""
import base64
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import websocket

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_web import check, failures, link_of, serve  # noqa: E402  (shared helpers)


class Bidi:
    """A WebDriver BiDi session: commands by id, events skipped."""

    def __init__(self, port):
        deadline = time.time() + 60
        while True:
            try:
                # Firefox refuses a WebSocket whose handshake names an Origin.
                self.socket = websocket.create_connection(
                    "ws://127.0.0.1:%d/session" % port, timeout=60, suppress_origin=True)
                break
            except (OSError, websocket.WebSocketException):
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
        self.ids = itertools.count(1)
        self.command("session.new", {"capabilities": {}})

    def command(self, method, params):
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") != number:
                continue
            if message.get("type") == "error":
                raise RuntimeError("%s: %s" % (method, message.get("message") or message))
            return message["result"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    base = serve(os.path.abspath(sys.argv[1]))
    profile = tempfile.mkdtemp(prefix="pelab-firefox-")
    with open(os.path.join(profile, "user.js"), "w") as f:
        # No first-run pages, no default-browser question, nothing fetched from Mozilla.
        for pref in ['"browser.shell.checkDefaultBrowser", false',
                     '"browser.startup.homepage_override.mstone", "ignore"',
                     '"datareporting.policy.dataSubmissionEnabled", false',
                     '"toolkit.telemetry.reportingpolicy.firstRun", false',
                     '"app.update.disabledForTesting", true',
                     '"browser.aboutwelcome.enabled", false']:
            f.write("user_pref(%s);\n" % pref)
    port = free_port()
    firefox = subprocess.Popen(
        ["firefox-esr", "--remote-debugging-port", str(port), "--profile", profile, "--no-remote",
         "--width", "1024", "--height", "900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        session = Bidi(port)
        context = session.command("browsingContext.getTree", {})["contexts"][0]["context"]
        session.command("browsingContext.setViewport",
                        {"context": context, "viewport": {"width": 1024, "height": 768}})

        def evaluate(expression):
            result = session.command("script.evaluate", {
                "expression": expression, "target": {"context": context},
                "awaitPromise": False})
            if result.get("type") == "exception":
                raise RuntimeError(json.dumps(result.get("exceptionDetails"))[:300])
            return result["result"].get("value")

        def page_json(what):
            return json.loads(evaluate("JSON.stringify(window.pelab.%s())" % what))

        # The page starts, and a link opens its scene.
        link = link_of('{"presented_panel": "order", "pos_a": 5}')
        session.command("browsingContext.navigate", {
            "context": context, "url": base + "index.html?rects" + link, "wait": "complete"})
        deadline = time.time() + 60
        while time.time() < deadline and not evaluate("!!(window.pelab && window.pelab.ready())"):
            time.sleep(0.1)
        started = evaluate("!!(window.pelab && window.pelab.ready())")
        check("Firefox: the page starts", started,
              str(evaluate("document.getElementById('status').textContent")))
        if not started:
            return 1
        time.sleep(1)
        scene = page_json("state")
        check("Firefox: a link opens its scene",
              scene["presented_panel"] == "order" and scene["pos_a"] == 5,
              json.dumps({k: scene.get(k) for k in ("presented_panel", "pos_a")}))

        # The panel draws: its widgets report where they are, and the screenshot is a picture.
        rects = page_json("page").get("widget_rects", {})
        check("Firefox: the order panel's widgets are drawn", "order.sentence_a" in rects,
              ", ".join(sorted(rects)[:10]))
        shot = session.command("browsingContext.captureScreenshot", {"context": context})
        with tempfile.NamedTemporaryFile(suffix=".png") as png:
            png.write(base64.b64decode(shot["data"]))
            png.flush()
            colours = subprocess.run(["identify", "-format", "%k", png.name],
                                     capture_output=True, text=True).stdout
        check("Firefox: the screenshot is a picture (many colours, not a blank canvas)",
              colours.isdigit() and int(colours) > 50, repr(colours))

        # A sentence typed with real key events into the order demo's first sentence.
        if "order.sentence_a" in rects:
            ratio = evaluate("window.devicePixelRatio") or 1
            x0, y0, x1, y1 = rects["order.sentence_a"][:4]
            x, y = int((x0 + x1) / 2 / ratio), int((y0 + y1) / 2 / ratio)
            typed = "the café sat, then left!"
            for _ in range(2):
                session.command("input.performActions", {"context": context, "actions": [{
                    "type": "pointer", "id": "mouse", "actions": [
                        {"type": "pointerMove", "x": x, "y": y},
                        {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 100},
                        {"type": "pointerUp", "button": 0}]}]})
                time.sleep(0.5)
                # Ctrl+A held 150 ms: Dear ImGui 1.86 reads a key's state once a frame, and a
                # press and release inside one slow frame never arrives.
                keys = [{"type": "keyDown", "value": "\uE009"}, {"type": "keyDown", "value": "a"},
                        {"type": "pause", "duration": 150}, {"type": "keyUp", "value": "a"},
                        {"type": "keyUp", "value": "\uE009"}, {"type": "pause", "duration": 150}]
                for character in typed:
                    keys += [{"type": "keyDown", "value": character},
                             {"type": "keyUp", "value": character}]
                keys += [{"type": "pause", "duration": 100}, {"type": "keyDown", "value": "\uE007"},
                         {"type": "pause", "duration": 200}, {"type": "keyUp", "value": "\uE007"}]
                session.command("input.performActions", {"context": context, "actions": [{
                    "type": "key", "id": "keyboard", "actions": keys}]})
                time.sleep(0.5)
                got = page_json("state").get("sentence_a")
                if got == typed:
                    break
            check("Firefox: a sentence with spaces, punctuation and é arrives whole", got == typed,
                  repr(got))
    finally:
        firefox.terminate()
        try:
            firefox.wait(10)
        except subprocess.TimeoutExpired:
            firefox.kill()
        shutil.rmtree(profile, ignore_errors=True)
    print("%d checks failed" % len(failures) if failures else "every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
