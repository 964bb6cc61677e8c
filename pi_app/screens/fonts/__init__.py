"""Shipped TTF fonts (DejaVu, Bitstream Vera license in LICENSE.txt).

A package so that setuptools package-data ships the fonts in wheels too.
"""
