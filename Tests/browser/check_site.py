#!/usr/bin/env python3
"""Opens a built site in a real headless Chromium and checks it as a reader would see it.

Usage: check_site.py OUTPUT_DIR SCREENSHOT_DIR PATH [PATH ...]

For every path, at 390 and 1280 CSS pixels wide, in the light and the dark scheme:
no horizontal overflow, no console error (requests to outside hosts are blocked here
and do not count), every content image with width and height, the action bar never
covering the end of the page, and no serious or critical axe-core violation.
A full-page screenshot of each is written to SCREENSHOT_DIR. Ends with
'browser: N passed, N failed'.
"""
import functools
import http.server
import json
import pathlib
import sys
import threading
import urllib.parse

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WIDTHS = [390, 1280]
SCHEMES = ["light", "dark"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(root):
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def is_outside_request(message, port):
    """Requests to hosts other than this server fail here (no network) and are allowed."""
    for word in message.replace('"', " ").split():
        if word.startswith(("http://", "https://")):
            host = urllib.parse.urlsplit(word).hostname
            if host not in ("127.0.0.1", "localhost"):
                return True
    return "ERR_NAME_NOT_RESOLVED" in message or "ERR_INTERNET_DISCONNECTED" in message


def check_page(driver, base, port, path, width, scheme, shots):
    problems = []
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.get_log("browser")
    driver.get(base + path)
    driver.execute_script("return document.fonts ? document.fonts.ready : null")

    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        problems.append(f"scrolls sideways by {overflow}px")

    unsized = driver.execute_script("""
        return Array.from(document.images)
          .filter(img => !img.closest('.leaflet-container'))
          .filter(img => !img.getAttribute('width') || !img.getAttribute('height'))
          .map(img => img.getAttribute('src'));""")
    if unsized:
        problems.append(f"images without width and height: {unsized}")

    covered = driver.execute_script("""
        const bar = document.querySelector('.action-bar');
        if (!bar) return null;
        window.scrollTo({top: document.documentElement.scrollHeight, behavior: 'instant'});
        const last = document.querySelector('.site-footer');
        return last.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;""")
    if covered is not None and covered > 1:
        problems.append(f"the action bar covers the last {covered:.0f}px of the page")

    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE" and not is_outside_request(entry["message"], port):
            problems.append(f"console: {entry['message']}")

    axe = Axe(driver)
    axe.inject()
    results = axe.run(options={"resultTypes": ["violations"]})
    for violation in results["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"]][:3]
            problems.append(f"axe {violation['impact']}: {violation['id']} ({violation['help']}) at {targets}")

    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": min(height, 12000), "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_script("window.scrollTo({top: 0, behavior: 'instant'})")
    name = (path.strip("/").replace("/", "_") or "home") + f"-{width}-{scheme}.png"
    driver.save_screenshot(str(shots / name))
    return problems


def check_share(driver, base):
    """Share falls back to copying the link with a visible confirmation."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 900, "deviceScaleFactor": 1, "mobile": True})
    driver.get(base + "articles/lovely-breakfast/")
    button = driver.find_element(By.CSS_SELECTOR, "[data-share]")
    if not button.is_displayed():
        return ["the Share button stays hidden with JavaScript on"]
    driver.execute_script("Object.defineProperty(navigator, 'share', {value: undefined})")
    button.click()
    try:
        WebDriverWait(driver, 3).until(
            lambda d: d.execute_script("return document.querySelector('[data-share-status]').textContent"))
    except TimeoutException:
        return ["Share gave no visible confirmation"]
    return []


def check_photos(driver, base, path):
    """The cover a browser picks of the sizes offered, at 390 px on a 3x phone and 1280 px
    on a 1x screen: at least as wide as it is shown, the smallest such, and, on the phone,
    the photos above the fold no more than 200 KB in all."""
    problems, figures = [], []
    for width, density, mobile in [(390, 3, True), (1280, 1, False)]:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 844, "deviceScaleFactor": density, "mobile": mobile})
        driver.get(base + path)
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(
            "const c = document.querySelector('img.cover'); return c && c.complete && c.currentSrc !== ''"))
        picked = driver.execute_script("""
            const cover = document.querySelector('img.cover');
            const entry = performance.getEntriesByName(cover.currentSrc)[0];
            const above = Array.from(document.images)
              .filter(img => img.complete && img.currentSrc && img.getBoundingClientRect().top < window.innerHeight)
              .map(img => (performance.getEntriesByName(img.currentSrc)[0] || {}).encodedBodySize || 0);
            return {src: cover.currentSrc, shown: cover.getBoundingClientRect().width, bytes: entry ? entry.encodedBodySize : -1,
                    above: above.reduce((a, b) => a + b, 0),
                    offered: Array.from(cover.parentElement.querySelector('source').srcset.matchAll(/ (\\d+)w/g)).map(m => +m[1])};""")
        chosen = int(picked["src"].rsplit("-", 1)[1].split("w.")[0])
        needed = picked["shown"] * density
        fitting = [w for w in picked["offered"] if w >= needed]
        label = f"{width}px {density}x"
        figures.append(f"{label}: {picked['src'].rsplit('/', 1)[1]} ({picked['bytes'] / 1024:.0f} KB) shown {picked['shown']:.0f}px wide; {picked['above'] / 1024:.0f} KB of photos above the fold")
        if not picked["src"].endswith(".webp"):
            problems.append(f"{label}: took {picked['src']}, not the WebP")
        if fitting and chosen != min(fitting):
            problems.append(f"{label}: took the {chosen}w, where the {min(fitting)}w is the smallest at least {needed:.0f}px wide")
        if mobile and picked["above"] > 200 * 1024:
            problems.append(f"{label}: {picked['above'] / 1024:.0f} KB of photos above the fold, more than 200 KB")
    return problems, figures


def pdf_pages(pdf):
    """The pages of a PDF Chrome printed, by its page objects."""
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") or pdf.count(b"/Type/Page") - pdf.count(b"/Type/Pages")


def check_print(driver, base, path, prints):
    """Printing a homework page gives an agenda of one or two pages."""
    import base64
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": "light"}]})
    driver.get(base + path)
    pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": True, "preferCSSPageSize": True})["data"])
    name = (path.strip("/").replace("/", "_") or "home") + ".pdf"
    (prints / name).write_bytes(pdf)
    pages = pdf_pages(pdf)
    problems = []
    if not 1 <= pages <= 2:
        problems.append(f"prints on {pages} pages")
    text = driver.execute_script("""
        const hidden = ['.site-header', '.action-bar', '.site-footer'].map(s => document.querySelector(s)).filter(Boolean);
        const header = document.querySelector('.print-header');
        return {header: header ? header.textContent : '', boxes: document.querySelectorAll('.print-box').length,
                rows: document.querySelectorAll('.agenda .assignment').length};""")
    if not text["header"]:
        problems.append("no print header with the school, grade and day")
    if text["boxes"] != text["rows"]:
        problems.append("an assignment has no box to tick")
    return problems, pages


def check_poster(driver, base, path, prints, shots):
    """A grade's poster prints on one page of A4 and of Letter, and zbarimg (zbar-tools)
    reads each of its QR codes, from a screenshot, back to the address printed under it."""
    import base64
    import subprocess
    problems = []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": "light"}]})
    driver.set_window_size(1280, 1400)
    driver.get(base + path)
    name = path.strip("/").replace("/", "_")
    for paper, (width, height) in {"A4": (8.27, 11.69), "Letter": (8.5, 11.0)}.items():
        pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": True, "paperWidth": width, "paperHeight": height})["data"])
        (prints / f"{name}-{paper}.pdf").write_bytes(pdf)
        pages = pdf_pages(pdf)
        if pages != 1:
            problems.append(f"prints on {pages} pages of {paper}")
    printed = driver.execute_script("return [...document.querySelectorAll('.poster-url')].map(p => p.textContent)")
    shot = shots / f"{name}-codes.png"
    driver.save_screenshot(str(shot))
    read = subprocess.run(["zbarimg", "--raw", "--quiet", str(shot)], capture_output=True, text=True)
    decoded = [line for line in read.stdout.split("\n") if line]
    if len(printed) != 3:
        problems.append(f"shows {len(printed)} addresses, not the page's, the calendar's and the feed's")
    if sorted(decoded) != sorted(printed):
        problems.append(f"the codes read {decoded}, the poster prints {printed}")
    if not any(url.startswith("webcal://") for url in printed):
        problems.append("no webcal: code for the calendar")
    return problems, decoded


def main():
    root, shots, paths = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3:]
    prints = shots.parent / "print"
    prints.mkdir(parents=True, exist_ok=True)
    shots.mkdir(parents=True, exist_ok=True)
    server = serve(root)
    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}/"
    driver = browser()
    passed = failed = 0
    try:
        for path in paths:
            for width in WIDTHS:
                for scheme in SCHEMES:
                    problems = check_page(driver, base, port, path, width, scheme, shots)
                    label = f"/{path} at {width}px, {scheme}"
                    if problems:
                        failed += 1
                        print(f"FAIL {label}")
                        for problem in problems:
                            print(f"     {problem}")
                    else:
                        passed += 1
                        print(f"ok   {label}")
        for path in [p for p in paths if p.endswith("/poster/")]:
            problems, decoded = check_poster(driver, base, path, prints, shots)
            if problems:
                failed += 1
                print(f"FAIL poster /{path}: " + "; ".join(problems))
            else:
                passed += 1
                print(f"ok   poster /{path}: one page of A4 and of Letter; its codes read " + ", ".join(decoded))
        for path in [p for p in paths if p.startswith("homework/grade-") and not p.endswith("/poster/")]:
            problems, pages = check_print(driver, base, path, prints)
            if problems:
                failed += 1
                print(f"FAIL print /{path}: " + "; ".join(problems))
            else:
                passed += 1
                print(f"ok   print /{path}: {pages} page(s)")
        if "articles/milk-tea-at-kam-wah/" in paths:
            problems, figures = check_photos(driver, base, "articles/milk-tea-at-kam-wah/")
            for figure in figures:
                print(f"     {figure}")
            if problems:
                failed += 1
                print("FAIL photos:", "; ".join(problems))
            else:
                passed += 1
                print("ok   the browser picks the size of the cover that fits, at 390px 3x and 1280px 1x")
        if "articles/lovely-breakfast/" in paths:
            problems = check_share(driver, base)
            if problems:
                failed += 1
                print("FAIL share:", "; ".join(problems))
            else:
                passed += 1
                print("ok   share falls back to copying the link")
    finally:
        driver.quit()
        server.shutdown()
    print(f"screenshots: {shots}")
    print(f"browser: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
