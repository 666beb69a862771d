"""Tests of the phone build (``make web``)."""
