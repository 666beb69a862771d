"""Builds the phone app: ``python -m web.build`` (``make web``)."""
