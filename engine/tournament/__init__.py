"""tournament"""
