#!/usr/bin/env python3
"""Writes the photo benchmark's corpus: COUNT articles, each with one phone-sized photo
(WIDTHxHEIGHT JPEG at quality 90, every other one stored on its side with EXIF orientation
6, all with GPS and the camera's name), as a sitegen site and as its Hugo twin, which makes
the same widths and formats through Hugo's image pipeline. Needs Pillow.

  Scripts/photo-corpus.py FOLDER COUNT [WIDTHxHEIGHT]     (default 4032x3024)

FOLDER/sitegen and FOLDER/hugo share each photo's bytes (hard links).
"""
import os
import pathlib
import random
import sys

from PIL import Image, ImageDraw, ImageFilter

WIDTHS = [320, 640, 960, 1280, 1600]
QUALITY = 75


def exif(orientation, rng):
    data = Image.Exif()
    data[0x010F] = "Bench Phone"
    data[0x0110] = "Model 15"
    data[0x0112] = orientation
    gps = data.get_ifd(0x8825)
    gps[1], gps[2] = "N", (22.0, float(rng.randrange(0, 60)), rng.uniform(0, 59))
    gps[3], gps[4] = "E", (114.0, float(rng.randrange(0, 60)), rng.uniform(0, 59))
    return data


def scenes(width, height, count):
    """A few scenes with the detail of photos: shapes and lines drawn at a quarter of the
    size and grown, mottling, and a sensor's grain. A 4032x3024 one is some 3.6 MB as a
    JPEG of quality 90 and some 180 KB as a 1280-pixel WebP, as a phone's photo is."""
    made = []
    for seed in range(count):
        rng = random.Random(seed)
        small = Image.new("RGB", (width // 4, height // 4), tuple(rng.randrange(60, 200) for _ in range(3)))
        draw = ImageDraw.Draw(small)
        for _ in range(600):
            x, y = rng.randrange(small.width), rng.randrange(small.height)
            colour = tuple(rng.randrange(256) for _ in range(3))
            if rng.random() < 0.5:
                r = rng.randrange(3, small.width // 6)
                draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
            else:
                draw.line([x, y, x + rng.randrange(-300, 300), y + rng.randrange(-300, 300)], fill=colour, width=rng.randrange(1, 6))
        scene = small.filter(ImageFilter.GaussianBlur(0.8)).resize((width, height), Image.BICUBIC)
        mottling = Image.effect_noise((width // 4, height // 4), 70).resize((width, height), Image.BICUBIC).convert("RGB")
        grain = Image.effect_noise((width, height), 40).convert("RGB")
        made.append(Image.blend(Image.blend(scene, mottling, 0.18), grain, 0.14))
    return made


def main():
    folder = pathlib.Path(sys.argv[1])
    count = int(sys.argv[2])
    width, height = (int(n) for n in (sys.argv[3] if len(sys.argv) > 3 else "4032x3024").split("x"))
    site, hugo = folder / "sitegen", folder / "hugo"
    (site / "Content" / "articles").mkdir(parents=True, exist_ok=True)
    (hugo / "content" / "posts").mkdir(parents=True, exist_ok=True)
    (hugo / "layouts" / "_default").mkdir(parents=True, exist_ok=True)
    (site / "Content" / "site.yaml").write_text("title: Photos\nbase_url: https://example.org/\ntimezone: Asia/Hong_Kong\n")
    (hugo / "config.toml").write_text(
        'baseURL = "https://example.org/"\ntitle = "Photos"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
        f"[imaging]\n  quality = {QUALITY}\n")
    widths = " ".join(str(w) for w in WIDTHS)
    # The same files as sitegen's: each width as WebP and as JPEG, in <picture>.
    (hugo / "layouts" / "_default" / "single.html").write_text(
        '<!doctype html><title>{{ .Title }}</title>\n'
        '{{ with .Resources.GetMatch "photo.jpg" }}{{ $img := . }}{{ $webp := slice }}{{ $jpg := slice }}'
        f'{{{{ range (slice {widths}) }}}}{{{{ if le . $img.Width }}}}'
        '{{ $w := $img.Resize (printf "%dx webp" .) }}{{ $webp = $webp | append (printf "%s %dw" $w.RelPermalink $w.Width) }}'
        '{{ $j := $img.Resize (printf "%dx jpg" .) }}{{ $jpg = $jpg | append (printf "%s %dw" $j.RelPermalink $j.Width) }}'
        '{{ end }}{{ end }}'
        '<picture><source type="image/webp" srcset="{{ delimit $webp ", " }}"><img srcset="{{ delimit $jpg ", " }}" alt="A photo"></picture>'
        '{{ end }}\n{{ .Content }}\n')
    (hugo / "layouts" / "_default" / "list.html").write_text("<!doctype html><title>{{ .Title }}</title>\n")
    (hugo / "layouts" / "index.html").write_text("<!doctype html><title>{{ .Title }}</title>\n")
    bases = scenes(width, height, 8)
    for index in range(count):
        rng = random.Random(1000 + index)
        name = f"photo-{index:03d}"
        article = site / "Content" / "articles" / name
        article.mkdir(parents=True, exist_ok=True)
        photo = bases[index % len(bases)].copy()
        # Each photo's own bytes: a mark of its own, so that none is another's twin.
        ImageDraw.Draw(photo).rectangle([rng.randrange(width - 200), rng.randrange(height - 200)] * 2, outline=(255, 255, 255), width=60)
        orientation = 6 if index % 2 else 1
        if orientation == 6:
            photo = photo.transpose(Image.Transpose.ROTATE_90)
        photo.save(article / "photo.jpg", "JPEG", quality=90, exif=exif(orientation, rng))
        (article / "index.md").write_text(f"---\ntitle: Photo {index}\ndate: 2026-11-{1 + index % 28:02d}\n"
                                          f"cover: {{src: photo.jpg, alt: A photo}}\n---\nA photo.\n")
        twin = hugo / "content" / "posts" / name
        twin.mkdir(parents=True, exist_ok=True)
        if not (twin / "photo.jpg").exists():
            os.link(article / "photo.jpg", twin / "photo.jpg")
        (twin / "index.md").write_text(f"---\ntitle: Photo {index}\ndate: 2026-11-{1 + index % 28:02d}\n---\nA photo.\n")


if __name__ == "__main__":
    main()
