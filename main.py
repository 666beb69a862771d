"""Entry point for `flet build` and the phone build (`make web`): the table app."""

import flet as ft

from screens.app import ASSETS, main

if __name__ == "__main__":
    ft.run(main, assets_dir=str(ASSETS))
