#!/usr/bin/env python3
"""Makes the photos the tests and the sample site use to show what sitegen does with a
phone's photo: stored turned a quarter with an EXIF orientation, and carrying the place
it was taken (GPS), the camera and XMP. Also the broken files a build must refuse with an
error at the line that names them. Needs Pillow (`pip install pillow`); the files are
committed, so neither building nor testing runs this script.

  Scripts/make-test-photos.py            all of them
"""
import io
import pathlib
import struct
import zlib

from PIL import Image, ImageDraw

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "Fixtures" / "photos"

# Somewhere on Nathan Road: what a phone would write, and what no published file may keep.
LATITUDE = (22, 18, 57.6)
LONGITUDE = (114, 10, 19.2)
XMP = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       b'<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="22,18.96N" exif:GPSLongitude="114,10.32E"/>'
       b'</rdf:RDF></x:xmpmeta>')


def phone_exif(orientation):
    exif = Image.Exif()
    exif[0x010F] = "Sitegen Test Phone"  # Make
    exif[0x0110] = "Model 12"  # Model
    exif[0x0112] = orientation
    exif[0x0132] = "2026:11:30 12:34:56"  # DateTime
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = LATITUDE
    gps[3] = "E"
    gps[4] = LONGITUDE
    return exif


def stored_turned(upright):
    """The pixels a phone stores with orientation 6: turned a quarter anticlockwise, for a
    viewer to turn clockwise."""
    return upright.transpose(Image.Transpose.ROTATE_90)


def save_phone_jpeg(upright, path, quality=88):
    stored = stored_turned(upright)
    stored.save(path, "JPEG", quality=quality, exif=phone_exif(6), xmp=XMP)


def test_photos():
    FIXTURES.mkdir(parents=True, exist_ok=True)
    # Upright, 48 wide and 64 tall: red above, blue below.
    upright = Image.new("RGB", (48, 64), "#d02020")
    ImageDraw.Draw(upright).rectangle([0, 32, 47, 63], fill="#2040d0")
    save_phone_jpeg(upright, FIXTURES / "phone.jpg")

    # A photo whose header is whole and whose picture stops two thirds of the way through.
    noise = Image.effect_noise((160, 120), 60).convert("RGB")
    buffer = io.BytesIO()
    noise.save(buffer, "JPEG", quality=90)
    whole = buffer.getvalue()
    (FIXTURES / "truncated.jpg").write_bytes(whole[: len(whole) * 2 // 3])
    (FIXTURES / "not-an-image.jpg").write_bytes(b"<!doctype html><title>Saved the page, not the photo</title>\n")

    # A PNG of a few dozen bytes that says it is 100,000 pixels square.
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0))
    bomb += chunk(b"IDAT", zlib.compress(b"\0" * 1024)) + chunk(b"IEND", b"")
    (FIXTURES / "bomb.png").write_bytes(bomb)

    # A PNG with transparency, whose fallback must stay a PNG.
    clear = Image.new("RGBA", (40, 30), (0, 0, 0, 0))
    ImageDraw.Draw(clear).ellipse([5, 5, 35, 25], fill=(30, 160, 60, 255))
    clear.save(FIXTURES / "badge.png")


def sample_photo():
    """The sample site's phone photo, the milk tea article's cover: tea poured from a pot
    into a cup, drawn 2016 wide and 1512 tall, stored turned with the place it was taken."""
    width, height = 2016, 1512
    upright = Image.new("RGB", (width, height), "#e9dcc6")
    draw = ImageDraw.Draw(upright)
    draw.rectangle([0, int(height * 0.66), width, height], fill="#7a4a2a")
    # The pot, up on the left, pouring; the cup, down on the right.
    draw.polygon([(260, 180), (760, 180), (840, 640), (180, 640)], fill="#9aa3a8", outline="#5f686d")
    draw.polygon([(840, 420), (1180, 520), (1180, 560), (840, 500)], fill="#9aa3a8")
    draw.line([(1180, 540), (1330, 1010)], fill="#b98a5e", width=34)
    draw.ellipse([1040, 960, 1620, 1100], fill="#f6f2ea", outline="#c8bfae", width=8)
    draw.rectangle([1080, 1030, 1580, 1290], fill="#f6f2ea")
    draw.ellipse([1080, 1230, 1580, 1340], fill="#f6f2ea", outline="#c8bfae", width=8)
    draw.ellipse([1100, 985, 1560, 1075], fill="#b98a5e")
    # Grain, as a phone's sensor leaves: a photo, not a flat drawing, to size.
    grain = Image.effect_noise((width, height), 18).convert("RGB")
    upright = Image.blend(upright, grain, 0.06)
    save_phone_jpeg(upright, ROOT / "Content" / "articles" / "milk-tea-at-kam-wah" / "pulling.jpg", quality=82)


if __name__ == "__main__":
    test_photos()
    sample_photo()
