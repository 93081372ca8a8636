#!/usr/bin/env python3
"""Draws the sample site's food pictures (simple illustrations, made here, not
downloaded). Needs Pillow (`pip install pillow`); the images are committed, so
building the site does not need this script. Given paths (as PICTURES names them), it
draws those alone: another Pillow may encode the others' bytes differently.
"""
import pathlib
import random
import sys

from PIL import Image, ImageDraw, ImageFilter

ROOT = pathlib.Path(__file__).resolve().parent.parent / "Content" / "articles"
W, H = 960, 720


def canvas(background):
    image = Image.new("RGB", (W, H), background)
    return image, ImageDraw.Draw(image)


def table(draw, color, seed):
    rng = random.Random(seed)
    for _ in range(40):
        y = rng.randrange(0, H)
        draw.line([(0, y), (W, y + rng.randrange(-30, 30))], fill=color, width=rng.randrange(1, 4))


def plate(draw, cx, cy, r, rim="#f4f1ea", inner="#ffffff"):
    draw.ellipse([cx - r, cy - r * 0.8, cx + r, cy + r * 0.8], fill=rim, outline="#d8d2c4", width=3)
    draw.ellipse([cx - r * 0.78, cy - r * 0.62, cx + r * 0.78, cy + r * 0.62], fill=inner)


def toast():
    image, draw = canvas("#8a5a3b")
    table(draw, "#7a4e33", 1)
    plate(draw, 480, 380, 380)
    for i, (x, y) in enumerate([(250, 250), (470, 300)]):
        draw.rounded_rectangle([x, y, x + 230, y + 190], radius=40, fill="#c8843f")
        draw.rounded_rectangle([x + 14, y + 14, x + 216, y + 176], radius=32, fill="#f1c27d")
        draw.rectangle([x + 20, y + 85, x + 210, y + 105], fill="#6fa34a")
        draw.rectangle([x + 40, y + 60, x + 120, y + 80], fill="#fff3c4")
    return image


def eggs():
    image, draw = canvas("#6b7f8e")
    table(draw, "#5e7280", 2)
    draw.ellipse([230, 180, 730, 600], fill="#ffffff", outline="#d0d0d0", width=4)
    draw.ellipse([280, 230, 680, 560], fill="#f3e9d6")
    for cx, cy in [(410, 380), (560, 400)]:
        draw.ellipse([cx - 95, cy - 75, cx + 95, cy + 75], fill="#fbfbf5")
        draw.ellipse([cx - 45, cy - 40, cx + 45, cy + 40], fill="#f2a900")
    draw.line([(700, 300), (880, 170)], fill="#c0c0c0", width=14)
    return image


def milk_tea():
    image, draw = canvas("#a0522d")
    table(draw, "#8f4826", 3)
    draw.ellipse([260, 470, 700, 640], fill="#f4f1ea", outline="#d8d2c4", width=3)
    draw.rounded_rectangle([330, 190, 630, 560], radius=30, fill="#ffffff", outline="#dddddd", width=4)
    draw.ellipse([330, 160, 630, 230], fill="#c99a6b", outline="#dddddd", width=4)
    draw.arc([590, 270, 720, 440], start=-80, end=80, fill="#ffffff", width=26)
    return image


def noodles():
    image, draw = canvas("#2f4f4f")
    table(draw, "#284545", 4)
    draw.ellipse([180, 160, 780, 620], fill="#e9e4d8", outline="#b9b2a0", width=6)
    draw.ellipse([230, 200, 730, 580], fill="#d9b26a")
    rng = random.Random(5)
    for _ in range(60):
        x, y = rng.randrange(270, 690), rng.randrange(240, 540)
        draw.arc([x - 60, y - 20, x + 60, y + 20], start=rng.randrange(0, 180), end=rng.randrange(180, 360), fill="#f3df9a", width=5)
    for cx, cy in [(400, 330), (520, 300), (470, 450), (580, 420)]:
        draw.ellipse([cx - 45, cy - 35, cx + 45, cy + 35], fill="#f6efe0", outline="#e3d5b5", width=3)
    draw.line([(700, 120), (880, 560)], fill="#7a3b12", width=12)
    draw.line([(740, 110), (910, 540)], fill="#7a3b12", width=12)
    return image


def egg_tarts():
    image, draw = canvas("#d9cbb0")
    table(draw, "#cdbd9f", 6)
    for cx, cy in [(300, 280), (620, 260), (460, 480), (760, 500), (200, 520)]:
        draw.regular_polygon((cx, cy, 140), n_sides=16, fill="#c9873a")
        draw.ellipse([cx - 110, cy - 110, cx + 110, cy + 110], fill="#f7c948")
        draw.ellipse([cx - 40, cy - 60, cx + 10, cy - 30], fill="#fbe39a")
    return image


def dim_sum():
    image, draw = canvas("#5b3a29")
    table(draw, "#4f3223", 7)
    for cx, cy in [(320, 360), (650, 360)]:
        draw.ellipse([cx - 230, cy - 200, cx + 230, cy + 200], fill="#d9b47c", outline="#a9844c", width=10)
        for dx, dy in [(-80, -60), (80, -60), (0, 70), (-90, 80), (90, 80)]:
            x, y = cx + dx, cy + dy
            draw.ellipse([x - 62, y - 52, x + 62, y + 52], fill="#f8f4ec", outline="#e6dccb", width=3)
            draw.ellipse([x - 14, y - 14, x + 14, y + 14], fill="#f39c6b")
    return image


def pineapple_bun():
    image, draw = canvas("#3d5a80")
    table(draw, "#35506f", 8)
    plate(draw, 480, 380, 360)
    draw.ellipse([250, 200, 710, 560], fill="#d38b2c")
    crust = Image.new("RGB", (W, H), "#f0b54e")
    crust_draw = ImageDraw.Draw(crust)
    for i in range(-6, 7):
        crust_draw.line([(480 + i * 55 - 160, 215), (480 + i * 55 + 160, 540)], fill="#d9962f", width=5)
        crust_draw.line([(480 + i * 55 + 160, 215), (480 + i * 55 - 160, 540)], fill="#d9962f", width=5)
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).ellipse([270, 215, 690, 540], fill=255)
    image.paste(crust, (0, 0), mask)
    draw.rectangle([300, 360, 660, 395], fill="#fff4d6")
    return image


def claypot():
    image, draw = canvas("#3b2f2f")
    table(draw, "#332828", 9)
    draw.ellipse([170, 150, 790, 640], fill="#6e3b22", outline="#4a2716", width=12)
    draw.ellipse([230, 200, 730, 590], fill="#f5efe2")
    rng = random.Random(10)
    for _ in range(14):
        x, y = rng.randrange(290, 650), rng.randrange(260, 520)
        draw.rounded_rectangle([x, y, x + 70, y + 22], radius=8, fill="#b5332e")
    for _ in range(10):
        x, y = rng.randrange(290, 650), rng.randrange(260, 520)
        draw.ellipse([x, y, x + 40, y + 30], fill="#5b8c3a")
    return image


def buns():
    image, draw = canvas("#4a5d4f")
    table(draw, "#3f5144", 11)
    draw.ellipse([170, 150, 790, 610], fill="#d8c08a", outline="#b99d62", width=8)
    draw.ellipse([200, 175, 760, 585], fill="#e9d6a7")
    for cx, cy in [(360, 300), (600, 300), (480, 470)]:
        draw.ellipse([cx - 115, cy - 95, cx + 115, cy + 95], fill="#f3c77b", outline="#d9a450", width=4)
        draw.ellipse([cx - 80, cy - 65, cx + 80, cy + 30], fill="#f7d99a")
        for dx in (-30, 0, 30):
            draw.line([(cx + dx - 12, cy - 40), (cx + dx + 12, cy + 10)], fill="#c9863a", width=5)
    return image


def hot_pot():
    image, draw = canvas("#2e2a3a")
    table(draw, "#27232f", 12)
    draw.ellipse([140, 120, 820, 640], fill="#9aa0a6", outline="#6b7075", width=10)
    draw.pieslice([180, 155, 780, 605], start=90, end=270, fill="#f1e3c6")
    draw.pieslice([180, 155, 780, 605], start=270, end=90, fill="#b3261e")
    draw.line([(480, 155), (480, 605)], fill="#6b7075", width=12)
    rng = random.Random(13)
    for _ in range(18):
        x, y = rng.randrange(240, 720), rng.randrange(220, 540)
        draw.ellipse([x - 18, y - 18, x + 18, y + 18], fill=rng.choice(["#f7f2e8", "#5b8c3a", "#e58f6a"]))
    return image


PICTURES = {
    "lovely-breakfast/toast.jpg": toast,
    "lovely-breakfast/egg.jpg": eggs,
    "lovely-breakfast/tea.jpg": milk_tea,
    "wonton-noodles-in-central/noodles.jpg": noodles,
    "egg-tarts-on-lyndhurst-terrace/tarts.jpg": egg_tarts,
    "dim-sum-in-sham-shui-po/dim-sum.jpg": dim_sum,
    "pineapple-bun-in-mong-kok/bun.jpg": pineapple_bun,
    "claypot-rice-at-temple-street/claypot.jpg": claypot,
    "dim-sum-at-ifc-mall/buns.jpg": buns,
    "hot-pot-on-christmas-eve/hot-pot.jpg": hot_pot,
}

for name, draw_picture in PICTURES.items():
    if len(sys.argv) > 1 and name not in sys.argv[1:]:
        continue
    path = ROOT / name
    path.parent.mkdir(parents=True, exist_ok=True)
    draw_picture().filter(ImageFilter.SMOOTH).save(path, "JPEG", quality=78, optimize=True, progressive=True)
    print(path.relative_to(ROOT.parent.parent), path.stat().st_size)
