"""Reads back every photo a built site publishes, with Pillow, as an independent reader:
each JPEG, WebP, AVIF and PNG must open, and none may carry EXIF, XMP, IPTC, a GPS tag or
the camera's name, neither as Pillow finds them nor anywhere in its bytes. The sample's
phone photo, stored on its side, must be upright: its light wall above, its brown table
below.

  python Tests/browser/check_photos.py OUTPUT [OUTPUT …]
"""
import pathlib
import sys

from PIL import Image

MARKERS = [b"Exif\0\0", b"EXIF", b"XMP ", b"xmpmeta", b"http://ns.adobe.com/xap", b"Photoshop 3.0", b"GPS",
           b"Sitegen Test Phone"]
SUFFIXES = {".jpg", ".jpeg", ".webp", ".avif", ".png"}

failures = []
checked = {}


def check(path):
    data = path.read_bytes()
    found = [marker.decode() for marker in MARKERS if marker in data]
    if found:
        failures.append(f"{path}: carries {', '.join(found)}")
    with Image.open(path) as image:
        image.load()
        info = {key for key in image.info if key.lower() in {"exif", "xmp", "iptc", "photoshop", "xml:com.adobe.xmp"}}
        if info:
            failures.append(f"{path}: Pillow finds {sorted(info)}")
        if len(image.getexif()) > 0:
            failures.append(f"{path}: Pillow reads {len(image.getexif())} EXIF tags")
        kind = image.format
    checked[kind] = checked.get(kind, 0) + 1


def upright(output):
    """The sample's milk tea cover: stored 1512 wide and 2016 tall, seen 2016 wide and 1512
    tall, its light wall above and its brown table below."""
    photo = output / "articles" / "milk-tea-at-kam-wah" / "pulling-320w.jpg"
    if not photo.exists():
        return
    with Image.open(photo) as image:
        image = image.convert("RGB")
        width, height = image.size
        if width <= height:
            failures.append(f"{photo}: {width} × {height}, on its side")
        top = image.getpixel((width // 2, 4))
        bottom = image.getpixel((width // 10, height - 4))
        if sum(top) < 600 or sum(bottom) > 450:
            failures.append(f"{photo}: upside down or on its side (top {top}, bottom {bottom})")
        checked["upright"] = 1


for folder in sys.argv[1:]:
    output = pathlib.Path(folder)
    for path in sorted(output.rglob("*")):
        if path.suffix.lower() in SUFFIXES and path.is_file() and "assets" not in path.parts:
            check(path)
    upright(output)

summary = ", ".join(f"{count} {kind}" for kind, count in sorted(checked.items()))
if failures:
    print("\n".join(failures))
    print(f"photos: {len(failures)} failed ({summary})")
    sys.exit(1)
print(f"photos: read back without metadata: {summary}")
