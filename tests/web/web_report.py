#!/usr/bin/python3
"""The browser edition measured beside the desktop, for docs/web.md (scripts/web_report.sh runs it).

For every panel, presented alone at 1024×768 (text ×1 and ×2):
  - the page in headless Chromium (SwiftShader's WebGL 2) and `pelab screenshot` of the same
    scene and size: the share of pixels that differ by more than 8 % of full scale
    (ImageMagick's compare -fuzz 8%), and the widget rectangles both report (the page through
    ?rects, the desktop window through --widget-rects): how far the furthest one moved;
  - the CPU time per frame while pos A and the pair move every frame, median over 200 frames,
    then over 3 rounds: the page with ?bench, the desktop with `pelab --bench-frames 300`, both
    at 1280×800; and the page with ?bench&onframe, its heavy results (which both editions
    compute off the frame: a thread on the desktop, between frames in the page) on the frame.
Also the download's size (each file gzip -9) and the first frame's time after page load, cold
(a new browser profile) and warm, median of 3.
Usage: web_report.py SITE PELAB OUT_DIR [--cpu-only] [--panels a,b]
(prints a Markdown report; pictures in OUT_DIR; --cpu-only: the CPU table alone; --panels: only
those panels)"""
import base64
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_web as web  # noqa: E402  (the same browser, server and hooks as the test)

site, pelab, out = sys.argv[1], sys.argv[2], sys.argv[3]
cpu_only = "--cpu-only" in sys.argv[4:]  # only the CPU table (the pictures take a quarter hour)
os.makedirs(out, exist_ok=True)
panels = [line.split()[0] for line in subprocess.run(
    [pelab, "panels"], check=True, capture_output=True, text=True).stdout.splitlines()
    if line.strip() and not line.startswith(" ")]
# --panels a,b: only those panels (e.g. to measure one panel again after a change).
for index, argument in enumerate(sys.argv[4:-1], 4):
    if argument == "--panels":
        panels = [panel for panel in panels if panel in sys.argv[index + 1].split(",")]


def link(scene):
    return "#scene=" + base64.urlsafe_b64encode(json.dumps(scene).encode()).decode().rstrip("=")


def store_settings(driver, font_scale):
    """Text size for the next load, as the page keeps it (local storage)."""
    driver.execute_script(
        "Module.pelabSession = 0; localStorage.setItem('pelab.settings', arguments[0])",
        "[PELab][View]\nTheme=dark\nFontScale=%g\n" % font_scale)


def start_x(display, size):
    """An X server for the desktop's windows, for the whole report (xvfb-run per call is slow)."""
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", size + "x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    return server


SMALL, LARGE = ":97", ":98"  # a 1024×768 screen (the window fits it) and a 1920×1080 one
servers = [start_x(SMALL, "1024x768"), start_x(LARGE, "1920x1080")]


def on(display):
    return dict(os.environ, DISPLAY=display)


def desktop_rects(scene_path, font_scale):
    """The desktop window's widget rectangles for the scene, in a 1024×768 screen."""
    with tempfile.TemporaryDirectory() as folder:
        rects = os.path.join(folder, "rects.json")
        env = dict(on(SMALL), XDG_CONFIG_HOME=folder)
        process = subprocess.Popen(
            [pelab, "--scene", scene_path, "--font-scale", str(font_scale), "--widget-rects",
             rects], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2.5)
        process.terminate()
        process.wait()
        with open(rects) as f:
            return json.load(f)


def differing_share(a, b):
    result = subprocess.run(["compare", "-metric", "AE", "-fuzz", "8%", a, b, "null:"],
                            capture_output=True, text=True)
    return float(result.stderr.split()[0]) / (1024 * 768)


base = web.serve(os.path.abspath(site))
address = base + "index.html"
rows = []
driver = web.browser()
try:
    web.open_page(driver, address)
    for scale in () if cpu_only else (1, 2):
        for panel in panels:
            scene = {"presented_panel": panel}
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(scene, f)
                scene_path = f.name
            store_settings(driver, scale)
            web.viewport(driver, 1024, 768)
            web.open_page(driver, address + "?rects" + link(scene))
            time.sleep(1.5)
            page_png = os.path.join(out, "web-%s-x%d.png" % (panel, scale))
            driver.save_screenshot(page_png)
            page_rects = web.page(driver)["widget_rects"]
            desk_png = os.path.join(out, "desktop-%s-x%d.png" % (panel, scale))
            subprocess.run([pelab, "screenshot", "--scene", scene_path, "--size", "1024x768",
                            "--font-scale", str(scale), "--theme", "dark", "--out", desk_png],
                           check=True, capture_output=True, env=on(LARGE))
            desk_rects = desktop_rects(scene_path, scale)
            shared = sorted(set(page_rects) & set(desk_rects))
            # [x0, y0, x1, y1, visible]: the corners moved, in pixels.
            moved = max((max(abs(p - d) for p, d in zip(page_rects[n][:4], desk_rects[n][:4]))
                         for n in shared), default=0.0)
            row = {"panel": panel, "scale": scale, "pixels": differing_share(page_png, desk_png),
                   "widgets": len(shared), "only_one_side": len(set(page_rects) ^ set(desk_rects)),
                   "moved_px": moved}
            os.unlink(scene_path)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    # CPU per frame at text ×1, in three rounds, each measuring the page, the page with its heavy
    # work on the frame, and the desktop one after the other (the machine's load drifts over
    # minutes; a round puts the three side by side); each number is the median of the rounds'.
    store_settings(driver, 1)
    web.viewport(driver, 1280, 800)
    samples = {panel: {"page_ms": [], "page_onframe_ms": [], "desktop_ms": []} for panel in panels}
    for _ in range(3):
        for panel in panels:
            scene = {"presented_panel": panel}
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(scene, f)
                scene_path = f.name
            for key, query in (("page_ms", "?bench"), ("page_onframe_ms", "?bench&onframe")):
                web.open_page(driver, address + query + link(scene))
                time.sleep(4)
                frames = web.page(driver)["frame_cpu_ms"][30:230]
                samples[panel][key].append(statistics.median(frames))
            bench = subprocess.run([pelab, "--scene", scene_path, "--bench-frames", "300"],
                                   check=True, capture_output=True, text=True,
                                   env=on(LARGE)).stdout
            samples[panel]["desktop_ms"].append(float(re.search(
                r"CPU time per frame \(ms\): median ([0-9.]+)", bench).group(1)))
            os.unlink(scene_path)
            print(panel, json.dumps(samples[panel]), file=sys.stderr, flush=True)
finally:
    driver.quit()
    for server in servers:
        server.terminate()

# Load: a new profile each time is a first visit (nothing cached); then the same page again.
cold, warm = [], []
for _ in range(0 if cpu_only else 3):
    driver = web.browser()
    try:
        cold.append(web.open_page(driver, address))
        warm.append(web.open_page(driver, address))
    finally:
        driver.quit()

if not cpu_only:
    sizes = {}
    for name in sorted(os.listdir(site)):
        with open(os.path.join(site, name), "rb") as f:
            data = f.read()
        sizes[name] = (len(data), len(gzip.compress(data, 9)))

    print("| file | bytes | gzip -9 |\n|---|---:|---:|")
    for name, (raw, packed) in sizes.items():
        print("| %s | %d | %d |" % (name, raw, packed))
    print("| **all** | %d | **%d** (%.2f MB) |" % (sum(r for r, _ in sizes.values()),
                                                  sum(p for _, p in sizes.values()),
                                                  sum(p for _, p in sizes.values()) / 1e6))
    print("\nFirst frame after page load, median of 3: %.2f s on a first visit (min %.2f, "
          "max %.2f), %.2f s again (cached)." % (statistics.median(cold), min(cold), max(cold),
                                      statistics.median(warm)))
    print("\n| panel | text | pixels differing > 8 % | widgets compared | furthest moved (px) |"
          "\n|---|---|---:|---:|---:|")
    for row in rows:
        print("| %s | ×%d | %.2f %% | %d (+%d on one side) | %.1f |" % (
            row["panel"], row["scale"], 100 * row["pixels"], row["widgets"], row["only_one_side"],
            row["moved_px"]))
print("\nCPU time per frame at 1280×800, text ×1, while pos A and the pair move every frame "
      "(median of 200 frames, then the median of 3 rounds):\n\n"
      "| panel | page (ms) | desktop (ms) | ratio | page, heavy work on the frame (ms) |"
      "\n|---|---:|---:|---:|---:|")
for panel in panels:
    page_ms, onframe_ms, desktop_ms = (statistics.median(samples[panel][key]) for key in
                                       ("page_ms", "page_onframe_ms", "desktop_ms"))
    print("| %s | %.2f | %.2f | %.2f× | %.2f |" % (panel, page_ms, desktop_ms,
                                                   page_ms / desktop_ms, onframe_ms))
