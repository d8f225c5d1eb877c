#!/usr/bin/env python3
"""Assembles the one-file page (build-web/pelab.html, docs/web.md) from the built page for a web
server: index.html with index.js written into it, and index.wasm and index.data carried inside
as base64 and handed to the program as Module.wasmBinary and Module.getPreloadedPackage, so that
a page opened from file:// (a USB stick, an e-mail) fetches nothing. This replaces a second link
of the whole program with -sSINGLE_FILE (2.5 minutes of the suite): the program, its files and
their paths are those of the served page, byte for byte.

Usage: web_single_file.py SITE_FOLDER OUT_HTML
"""
import base64
import pathlib
import re
import sys

LOADER = """<script>
  // The one-file page: the program (WebAssembly) and its files (fonts, lessons, scenes) are
  // carried below as base64, so nothing is fetched (a page opened from file:// cannot fetch).
  (() => {
    const bytes = (text) => {
      const binary = atob(text);
      const out = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; ++i) out[i] = binary.charCodeAt(i);
      return out;
    };
    Module.wasmBinary = bytes("%(wasm)s");
    const data = bytes("%(data)s").buffer;
    Module.getPreloadedPackage = (name, size) => (size === data.byteLength ? data : null);
  })();
</script>
"""


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    site, out = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    html = (site / "index.html").read_text(encoding="utf-8")
    script = (site / "index.js").read_text(encoding="utf-8")
    wasm = base64.b64encode((site / "index.wasm").read_bytes()).decode("ascii")
    data = base64.b64encode((site / "index.data").read_bytes()).decode("ascii")
    # The loader must find the preloaded package hook: the file packager's code asks for it.
    if "getPreloadedPackage" not in script or "wasmBinary" not in script:
        print("web_single_file: index.js has no getPreloadedPackage or wasmBinary hook "
              "(another Emscripten?)", file=sys.stderr)
        return 1
    # A "</script" inside the program's text would end the inline script early.
    if re.search(r"</script", script, re.IGNORECASE):
        print("web_single_file: index.js contains </script", file=sys.stderr)
        return 1
    tag = re.search(r'<script[^>]*\bsrc="index\.js"[^>]*>\s*</script>', html)
    if not tag:
        print("web_single_file: index.html does not load index.js", file=sys.stderr)
        return 1
    inline = LOADER % {"wasm": wasm, "data": data} + "<script>\n" + script + "\n</script>"
    page = html[:tag.start()] + inline + html[tag.end():]
    out.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
