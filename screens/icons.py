"""The app's own icons for the browser and the home screen, drawn with Pillow.

Flet's web files carry Flet's icons; files of the same names in the assets
folder are served in their place. Run ``python -m screens.icons`` to draw them
again after changing the design; the PNGs are kept in the repository.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw

from screens.web import APP_DESCRIPTION, APP_NAME, APP_SHORT_NAME

ASSETS = Path(__file__).resolve().parent / "assets"
PURPLE = (94, 53, 177)  # Material deep purple 600, the app's seed colour
PURPLE_HEX = "#5E35B1"
CARD = (250, 248, 255)
OVERSAMPLE = 4  # drawn large and scaled down, for smooth edges


def draw(size: int, *, full_bleed: bool, alpha: bool = True) -> Image.Image:
    """A white card with a crescent moon, on deep purple.

    ``full_bleed`` fills the square (for maskable icons, which the platform
    crops to its own shape, so the card stays inside the middle 80%).
    """
    big = size * OVERSAMPLE
    mode = "RGBA" if alpha else "RGB"
    image = Image.new(mode, (big, big), (0, 0, 0, 0) if alpha else PURPLE)
    pen = ImageDraw.Draw(image)
    if full_bleed:
        pen.rectangle((0, 0, big, big), fill=PURPLE)
        scale = 0.62
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=PURPLE)
        scale = 0.72
    card_h = big * scale
    card_w = card_h * 0.7
    left, top = (big - card_w) / 2, (big - card_h) / 2
    pen.rounded_rectangle(
        (left, top, left + card_w, top + card_h), radius=card_w / 8, fill=CARD
    )
    # The crescent: a purple disc with a card-coloured disc over its side.
    radius = card_w * 0.3
    cx, cy = big / 2, big / 2
    pen.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PURPLE)
    shift = radius * 0.45
    pen.ellipse(
        (
            cx - radius + shift,
            cy - radius - shift / 2,
            cx + radius + shift,
            cy + radius - shift / 2,
        ),
        fill=CARD,
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def manifest() -> dict[str, object]:
    icons: list[dict[str, str]] = [
        {
            "src": f"icons/icon-{size}.png",
            "sizes": f"{size}x{size}",
            "type": "image/png",
        }
        for size in (192, 512)
    ]
    icons += [
        {
            "src": f"icons/icon-maskable-{size}.png",
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable",
        }
        for size in (192, 512)
    ]
    return {
        "name": APP_NAME,
        "short_name": APP_SHORT_NAME,
        "start_url": ".",
        "display": "standalone",
        "background_color": "#FFFFFF",
        "theme_color": PURPLE_HEX,
        "description": APP_DESCRIPTION,
        "orientation": "natural",
        "prefer_related_applications": False,
        "icons": icons,
    }


def write_all(folder: Path = ASSETS) -> None:
    icons = folder / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    draw(32, full_bleed=False).save(folder / "favicon.png")
    for size in (192, 512):
        draw(size, full_bleed=False).save(icons / f"icon-{size}.png")
        draw(size, full_bleed=True, alpha=False).save(
            icons / f"icon-maskable-{size}.png"
        )
    draw(192, full_bleed=True, alpha=False).save(icons / "apple-touch-icon-192.png")
    # Shown while the app loads, in place of Flet's logo.
    draw(512, full_bleed=False).save(icons / "loading-animation.png")
    text = json.dumps(manifest(), indent=2, ensure_ascii=False) + "\n"
    (folder / "manifest.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_all()
